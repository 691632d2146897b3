import { isTransient } from '@ipamkit/models';
import type { ClientDeps } from './client-deps.js';
import { MaxRetriesError } from './client-errors.js';
import { DATASTORE_RETRIES } from './with-cas-retry.js';

const FIRST_DELAY_MS = 100;
/** Calico doubles without bound until its context ends; we have no context, so we cap both. */
const MAX_DELAY_MS = 5_000;

/**
 * UpgradeHost (design/calico-stored-formats.md#upgradehost): back-fill the host's affinity labels, retrying transient
 * failures with exponential back-off from 100 ms. Non-transient errors surface at once.
 */
export async function upgradeHost(deps: ClientDeps, nodeName: string, sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms))): Promise<void> {
  let delay = FIRST_DELAY_MS;
  let last: unknown;
  for (let attempt = 0; attempt < DATASTORE_RETRIES; attempt += 1) {
    try {
      await deps.ds.upgradeHost(nodeName);
      return;
    } catch (err) {
      if (!isTransient(err)) throw err;
      last = err;
      await sleep(delay);
      delay = Math.min(delay * 2, MAX_DELAY_MS);
    }
  }
  throw new MaxRetriesError(`upgrade host ${nodeName}`, DATASTORE_RETRIES, { cause: last });
}

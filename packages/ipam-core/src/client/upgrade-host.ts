import { isTransient, retry, sleep as timerSleep } from '@ipamkit/models';
import type { ClientDeps } from './client-deps.js';
import { MaxRetriesError } from './client-errors.js';
import { DATASTORE_RETRIES } from './with-cas-retry.js';

/** From 100 ms, doubling. Calico doubles without bound until its context ends; we have no context, so we cap it. */
const UPGRADE_BACKOFF = { baseMs: 100, capMs: 5_000 };

/**
 * UpgradeHost (design/ipam-core.md, "Retries and backoff"): back-fill the host's affinity labels,
 * retrying transient failures with exponential back-off. Non-transient errors surface at once.
 */
export function upgradeHost(deps: ClientDeps, nodeName: string, sleep: (ms: number) => Promise<void> = timerSleep): Promise<void> {
  return retry(() => deps.ds.upgradeHost(nodeName), {
    attempts: DATASTORE_RETRIES,
    isRetryable: isTransient,
    backoff: UPGRADE_BACKOFF,
    sleep,
    onExhausted: (last, attempts) => new MaxRetriesError(`upgrade host ${nodeName}`, attempts, { cause: last }),
  });
}

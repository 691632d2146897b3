import { NotFoundError } from '@ipamkit/models';
import { type ReleaseOptions, partialReleaseResult } from '@ipamkit/ipam-core';
import { UNKNOWN_NODE_LABEL } from '../constants.js';
import { UnexpectedReleaseError } from '../errors.js';
import type { Allocation } from '../state/allocation.js';
import { isAllocationValid } from '../validity/allocation-validity.js';
import type { SyncDeps } from './sync-deps.js';

/**
 * The handle rule (design/calico-callers.md#releasing-confirmed-leaks): a handle's addresses go only when every one the tracker knows
 * is confirmed, so a dual-stack pod never loses one family while it still uses the other.
 */
export function isHandleConfirmedLeak(deps: SyncDeps, handle: string): boolean {
  const { state } = deps;
  if (state.allocationsByHandle.size === 0) {
    deps.log.warn('handle tracker is empty; refusing to release', { handle });
    return false;
  }
  for (const a of state.allocationsByHandle.get(handle) ?? []) if (!a.isConfirmedLeak()) return false;
  return true;
}

export interface ReleaseOutcome {
  readonly released: number;
  readonly heldBack: number;
}

/**
 * Releases confirmed leaks (design/calico-callers.md#releasing-confirmed-leaks): each is re-validated immediately before the call (a
 * live read while its node still resolves), held back unless its whole handle is confirmed, and
 * released with the sequence number seen, at most `maxReleasesPerPass` per pass. A partial release
 * is a normal outcome: what was released leaves the maps, the rest rolls over to the next pass.
 */
export async function releaseKnownLeaks(deps: SyncDeps): Promise<ReleaseOutcome> {
  const { state } = deps;
  const options: ReleaseOptions[] = [];
  const leaks = new Map<string, Allocation>();
  let heldBack = 0;
  for (const a of [...state.confirmedLeaks.values()]) {
    if (await isAllocationValid(a, deps.view, a.knode === '')) {
      deps.log.info('leak resurrected on final check', { ip: a.ip, handle: a.handle });
      state.resurrect(a);
      continue;
    }
    // The final check awaited: the block may have changed under us, dropping this allocation.
    if (state.confirmedLeaks.get(a.id) !== a) continue;
    if (!isHandleConfirmedLeak(deps, a.handle)) {
      heldBack++;
      continue;
    }
    options.push(a.releaseOptions());
    leaks.set(a.ip, a);
    if (options.length >= deps.settings.maxReleasesPerPass) break;
  }
  if (options.length === 0) return { released: 0, heldBack };

  let released: ReleaseOptions[];
  let failure: unknown;
  try {
    released = (await deps.ipam.releaseIPs(options)).released;
  } catch (err) {
    failure = err;
    released = partialReleaseResult(err)?.released ?? [];
  }
  for (const option of released) {
    const a = leaks.get(option.address);
    if (a === undefined) throw new UnexpectedReleaseError(option.address);
    leaks.delete(option.address);
    state.releaseAllocation(a);
    deps.metrics?.countReclamation(state.pools.poolOf(a.block), a.node === '' ? UNKNOWN_NODE_LABEL : a.node);
  }
  for (const a of leaks.values()) deps.log.info('leak not released this pass', { ip: a.ip, handle: a.handle });
  if (failure !== undefined && !(failure instanceof NotFoundError)) throw failure instanceof Error ? failure : new Error('releaseIPs failed', { cause: failure });
  return { released: released.length, heldBack };
}

import { SLOW_STEP_MS } from '../constants.js';
import { GcWorkRemainingError } from '../errors.js';
import { checkAllocations } from './check-allocations.js';
import { collectColdIPs } from './collect-cold-ips.js';
import { releaseKnownLeaks } from './release-known-leaks.js';
import { releaseNodes } from './release-nodes.js';
import { releaseUnusedBlocks } from './release-unused-blocks.js';
import type { SyncDeps } from './sync-deps.js';

export interface SyncResult {
  /** False when the pass was skipped (inputs not in sync, or the datastore not ready). */
  readonly ran: boolean;
  readonly full: boolean;
  readonly released: number;
  readonly coldBlocksVisited: number;
  readonly blocksReleased: number;
  readonly nodesReleased: number;
  /** Work left for a retry: nodes whose cleanup failed and confirmed leaks still held. */
  readonly workRemaining?: GcWorkRemainingError;
}

async function timed<T>(deps: SyncDeps, step: string, run: () => Promise<T>): Promise<T> {
  const start = performance.now();
  try {
    return await run();
  } finally {
    const ms = performance.now() - start;
    if (ms > SLOW_STEP_MS) deps.log.info('slow garbage collection step', { step, ms: Math.round(ms) });
  }
}

/**
 * One pass (design/calico-callers.md#sync-pipeline): classify, release confirmed leaks, collect cold addresses, release
 * empty blocks, clean up deleted nodes. An error in the release or cold step skips the later steps.
 * Leftover work comes back as `workRemaining`, which the controller turns into a backoff retry.
 */
export async function syncIPAM(deps: SyncDeps): Promise<SyncResult> {
  const { state } = deps;
  const full = state.fullSyncRequired;
  if (!state.datastoreReady || !state.inSync) {
    return { ran: false, full, released: 0, coldBlocksVisited: 0, blocksReleased: 0, nodesReleased: 0 };
  }
  const nodesToRelease = await timed(deps, 'checkAllocations', () => checkAllocations(deps, full));
  const { released } = await timed(deps, 'releaseKnownLeaks', () => releaseKnownLeaks(deps));
  const coldBlocksVisited = await timed(deps, 'collectColdIPs', () => collectColdIPs(deps));
  const blocksReleased = await timed(deps, 'releaseUnusedBlocks', () => releaseUnusedBlocks(deps));
  const failed = await timed(deps, 'releaseNodes', () => releaseNodes(deps, nodesToRelease));
  const result = { ran: true, full, released, coldBlocksVisited, blocksReleased, nodesReleased: nodesToRelease.length - failed.length };
  if (failed.length > 0 || state.confirmedLeaks.size > 0) {
    return { ...result, workRemaining: new GcWorkRemainingError(failed.length, state.confirmedLeaks.size) };
  }
  return result;
}

import { ipamCheck, blockProblem, type CheckResult, type ClusterState } from '@ipamkit/cli';
import type { Clock } from '@ipamkit/ipam-core';
import type { Datastore } from '@ipamkit/models';
import {
  allocatedAddresses,
  duplicateAddressViolations,
  handleCountViolations,
  orphanViolations,
  pendingAffinityViolations,
} from './accounting-checks.js';
import type { SequenceTracker } from './sequence-tracker.js';

export interface FinalCheckInput {
  readonly datastore: Datastore;
  readonly clock: Clock;
  /** Pods and Services alive at the end, so that `ipam check` can tell a leak from a live owner. */
  readonly cluster: ClusterState;
  /** Handles whose owner is known to be gone (killed allocators, pods deleted without a DEL). */
  readonly goneHandles?: ReadonlySet<string>;
  readonly sequence?: SequenceTracker;
}

export interface FinalCheckResult {
  /** Empty when every invariant holds. */
  readonly violations: string[];
  /** The `ipam check` result, for the summary. */
  readonly check: CheckResult;
  readonly allocations: number;
  readonly leaks: number;
  readonly duplicates: number;
}

/**
 * The end-of-run verdict: `ipam check` (leaks, duplicates, structural findings) plus the accounting
 * checks of design/calico-callers.md#accounting-checks, which `ipam check` does not make (handle counts, pending
 * affinities, orphans of killed owners, sequence numbers).
 */
export async function finalCheck(input: FinalCheckInput): Promise<FinalCheckResult> {
  const ds = input.datastore;
  const check = await ipamCheck({ datastore: ds, clock: input.clock }, input.cluster);
  const [blocks, handles, affinities] = await Promise.all([ds.blocks.list(), ds.handles.list(), ds.affinities.list()]);
  const addresses = allocatedAddresses(blocks);
  const violations: string[] = [];
  for (const a of check.allocations) {
    if (a.classification === 'duplicate' || a.releasable) {
      violations.push(`ipam check: ${a.ip} (${a.handle ?? 'no handle'}) is ${a.classification}: ${a.reason}`);
    }
  }
  for (const f of check.findings) if (f.problem) violations.push(`ipam check: ${f.kind} ${f.subject}: ${f.reason}`);
  const now = input.clock.now();
  for (const b of blocks) {
    if (b.deleted) continue;
    const problem = blockProblem(b, now);
    if (problem !== undefined) violations.push(`block ${b.cidr} is malformed: ${problem}`);
  }
  const duplicates = duplicateAddressViolations(addresses);
  violations.push(...duplicates, ...handleCountViolations(handles, addresses), ...pendingAffinityViolations(affinities));
  if (input.goneHandles !== undefined) violations.push(...orphanViolations(addresses, input.goneHandles, 'its owner is gone and the grace period passed'));
  if (input.sequence !== undefined) violations.push(...input.sequence.violations);
  return {
    violations: [...new Set(violations)],
    check,
    allocations: addresses.length,
    leaks: check.allocations.filter((a) => a.classification === 'leak').length,
    duplicates: Math.max(duplicates.length, check.allocations.filter((a) => a.classification === 'duplicate').length),
  };
}

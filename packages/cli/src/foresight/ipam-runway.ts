import { computeRunway, loadClusterSnapshot, type AllocationRate, type RunwayReport } from '@ipamkit/ipam-core';
import { definedFields, type IPVersion } from '@ipamkit/models';
import type { CommandContext } from '../cli-io.js';

export interface RunwayCommandOptions {
  readonly ipVersions?: readonly IPVersion[];
  readonly rate?: AllocationRate;
  readonly requestMaxBlocksPerHost?: number;
}

/** `ipam runway` (design/cli.md "runway and what-if"): the planner over what the datastore holds now. */
export async function ipamRunway(ctx: CommandContext, options: RunwayCommandOptions): Promise<RunwayReport> {
  const snapshot = await loadClusterSnapshot(ctx.datastore, ctx.clock.now());
  const { ipVersions, rate, requestMaxBlocksPerHost } = options;
  return computeRunway(snapshot, definedFields({ ipVersions, rate, requestMaxBlocksPerHost }));
}

/** Nodes that cannot start even one more pod now: the runway's problems (exit status 1). */
export function nodesOutOfRunway(report: RunwayReport): RunwayReport['nodes'] {
  return report.nodes.filter((n) => n.alone === 0);
}

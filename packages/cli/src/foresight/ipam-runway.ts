import { computeRunway, loadClusterSnapshot, type AllocationRate, type RunwayReport } from '@ipamkit/ipam-core';
import type { IPVersion } from '@ipamkit/models';
import type { CommandContext } from '../cli-io.js';

export interface RunwayCommandOptions {
  readonly ipVersions?: readonly IPVersion[];
  readonly rate?: AllocationRate;
  readonly requestMaxBlocksPerHost?: number;
}

/** `ipam runway` (design/cli.md "runway and what-if"): the planner over what the datastore holds now. */
export async function ipamRunway(ctx: CommandContext, options: RunwayCommandOptions): Promise<RunwayReport> {
  const snapshot = await loadClusterSnapshot(ctx.datastore, ctx.clock.now());
  return computeRunway(snapshot, {
    ...(options.ipVersions === undefined ? {} : { ipVersions: options.ipVersions }),
    ...(options.rate === undefined ? {} : { rate: options.rate }),
    ...(options.requestMaxBlocksPerHost === undefined ? {} : { requestMaxBlocksPerHost: options.requestMaxBlocksPerHost }),
  });
}

/** Nodes that cannot start even one more pod now: the runway's problems (exit status 1). */
export function nodesOutOfRunway(report: RunwayReport): RunwayReport['nodes'] {
  return report.nodes.filter((n) => n.alone === 0);
}

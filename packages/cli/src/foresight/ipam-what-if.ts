import { applyWhatIf, computeRunway, loadClusterSnapshot, type RunwayReport, type WhatIfChange } from '@ipamkit/ipam-core';
import { definedFields, type IPPool } from '@ipamkit/models';
import type { CommandContext } from '../cli-io.js';
import type { RunwayCommandOptions } from './ipam-runway.js';

export interface WhatIfCommandOptions extends RunwayCommandOptions {
  readonly addNodes?: number;
  readonly nodeLabels?: Readonly<Record<string, string>>;
  readonly podsPerNode?: number;
  readonly blockSize?: number;
  readonly strictAffinity?: boolean;
  readonly maxBlocksPerHost?: number;
  readonly disablePools?: readonly string[];
  readonly addPools?: readonly IPPool[];
}

/** A node the change leaves unable to allocate (or to reach `--pods-per-node`), and why. */
export interface UnableNode {
  readonly node: string;
  /** Pods it can still start (alone), or reaches in the fill with a target. */
  readonly pods: number;
  readonly reason: string;
}

export interface WhatIfResult {
  /** The change, one line per flag, as applied. */
  readonly changes: readonly string[];
  readonly before: RunwayReport;
  readonly after: RunwayReport;
  readonly unableToAllocate: readonly UnableNode[];
}

function changeOf(o: WhatIfCommandOptions): { change: WhatIfChange; lines: string[] } {
  const lines: string[] = [];
  const change: { -readonly [K in keyof WhatIfChange]: WhatIfChange[K] } = {};
  if (o.addNodes !== undefined) {
    change.addNodes = { count: o.addNodes, ...(o.nodeLabels === undefined ? {} : { labels: o.nodeLabels }) };
    lines.push(`add ${o.addNodes} nodes${o.nodeLabels === undefined ? '' : ` labelled ${JSON.stringify(o.nodeLabels)}`}`);
  }
  if (o.blockSize !== undefined) {
    change.blockSize = { size: o.blockSize };
    lines.push(`block size ${o.blockSize} for new blocks of the enabled pools of its family`);
  }
  if (o.strictAffinity !== undefined) {
    change.strictAffinity = o.strictAffinity;
    lines.push(`strict affinity ${o.strictAffinity ? 'on' : 'off'}`);
  }
  if (o.maxBlocksPerHost !== undefined) {
    change.maxBlocksPerHost = o.maxBlocksPerHost;
    lines.push(`maxBlocksPerHost ${o.maxBlocksPerHost}`);
  }
  if (o.disablePools !== undefined && o.disablePools.length > 0) {
    change.disablePools = o.disablePools;
    lines.push(`disable ${o.disablePools.join(', ')}`);
  }
  if (o.addPools !== undefined && o.addPools.length > 0) {
    change.addPools = o.addPools;
    lines.push(`add ${o.addPools.map((p) => `${p.name} (${p.cidr})`).join(', ')}`);
  }
  if (o.podsPerNode !== undefined) lines.push(`${o.podsPerNode} pods per node`);
  return { change, lines };
}

/**
 * `ipam what-if` (design/cli.md "runway and what-if"): runway now and under the proposed change,
 * computed on a changed copy of one snapshot; nothing is written.
 */
export async function ipamWhatIf(ctx: CommandContext, options: WhatIfCommandOptions): Promise<WhatIfResult> {
  const { change, lines } = changeOf(options);
  const snapshot = await loadClusterSnapshot(ctx.datastore, ctx.clock.now());
  const changed = applyWhatIf(snapshot, change);
  const { ipVersions, rate, requestMaxBlocksPerHost, podsPerNode } = options;
  const planOptions = definedFields({ ipVersions, rate, requestMaxBlocksPerHost, podsPerNode });
  const before = computeRunway(snapshot, planOptions);
  const after = computeRunway(changed, planOptions);
  const unableToAllocate = after.nodes
    .filter((n) => (options.podsPerNode === undefined ? n.alone === 0 : n.reachesTarget === false))
    .map((n): UnableNode => {
      if (options.podsPerNode === undefined) return { node: n.node, pods: 0, reason: n.reason };
      return { node: n.node, pods: n.inFill, reason: n.reasonInFill ?? n.reason };
    });
  return { changes: lines.length === 0 ? ['no change'] : lines, before, after, unableToAllocate };
}

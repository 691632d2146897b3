import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyWhatIf, computeRunway, loadClusterSnapshot, systemClock, type RunwayLimit } from '@ipamkit/ipam-core';
import { applyIPPoolDefaults, definedFields, type Datastore, type IPPool } from '@ipamkit/models';
import { inProcessDriver, resultAddresses, type CniDriver } from '../run/cni-driver.js';
import { RUN_DEFAULTS, type RunOptions } from '../run/run-options.js';
import { openBackend } from '../run/run-sim.js';
import type { ReplayChange } from './what-if-flags.js';

/** The replay's own pools: two IPv4 pools of eight /26 blocks each (design/sim.md, "What-if replay"). */
export const REPLAY_POOLS: readonly IPPool[] = [
  { name: 'replay-a', cidr: '10.0.0.0/23', blockSize: 26 },
  { name: 'replay-b', cidr: '10.0.4.0/23', blockSize: 26 },
];

export interface ReplayOptions {
  readonly nodes: number;
  readonly datastore: RunOptions['datastore'];
  readonly sqlitePath?: string;
  readonly etcdEndpoints?: readonly string[];
  readonly replay: ReplayChange;
}

export interface ReplayFailure {
  readonly node: string;
  readonly afterPods: number;
}

export interface ReplayResult {
  readonly changes: readonly string[];
  readonly predicted: (ReplayFailure & { readonly limit: RunwayLimit; readonly reason: string }) | undefined;
  readonly real: ReplayFailure | undefined;
  /** Allowed difference in pods: 0 for per-node limits, one block when a pool ran dry. */
  readonly tolerance: number;
  /** With `--pods-per-node`: the nodes that cannot reach it, predicted and real. */
  readonly unable: { readonly predicted: readonly string[]; readonly real: readonly string[] } | undefined;
  readonly agrees: boolean;
}

async function applyForReal(ds: Datastore, snapshotPools: readonly IPPool[], change: ReplayChange['change']): Promise<void> {
  for (let i = 1; i <= (change.addNodes?.count ?? 0); i += 1) await ds.nodes.create({ name: `what-if-node-${i}` });
  if (change.strictAffinity !== undefined || change.maxBlocksPerHost !== undefined) {
    const stored = await ds.ipamConfig.get();
    await ds.ipamConfig.update({ ...stored, ...definedFields({ strictAffinity: change.strictAffinity, maxBlocksPerHost: change.maxBlocksPerHost }) });
  }
  for (const name of change.disablePools ?? []) {
    const stored = await ds.ipPools.get(name);
    await ds.ipPools.update({ ...stored, disabled: true });
  }
  if (change.blockSize !== undefined) {
    // A pool's block size cannot change; the replay's pools hold no blocks yet, so make them again.
    for (const pool of snapshotPools) {
      if (pool.disabled === true || (change.disablePools ?? []).includes(pool.name)) continue;
      await ds.ipPools.delete(pool.name);
      await ds.ipPools.create({ ...pool, blockSize: change.blockSize.size });
    }
  }
}

function netConf(node: string, dir: string, keys: Record<string, unknown>): string {
  return JSON.stringify({ cniVersion: '1.0.0', name: 'k8s-pod-network', type: 'calico', nodename: node, ipam: { type: 'calico-ipam', assign_ipv4: 'true' }, ipam_lock_file: join(dir, `${node}.lock`), ...keys });
}

/** Round-robin CNI ADDs in node-name order, as the planner fills; stops at the first failure unless there is a target. */
async function fillThroughCni(driver: CniDriver, nodes: readonly string[], dir: string, keys: Record<string, unknown>, target: number | undefined, maxPods: number): Promise<{ first: ReplayFailure | undefined; unable: string[] }> {
  const state = [...nodes].sort().map((name) => ({ name, placed: 0, failed: false }));
  let placed = 0;
  let first: ReplayFailure | undefined;
  for (;;) {
    const running = state.filter((s) => !s.failed && s.placed < (target ?? Number.POSITIVE_INFINITY));
    if (running.length === 0 || placed >= maxPods) break;
    for (const s of running) {
      const pod = `${s.name}-pod-${s.placed}`;
      const out = await driver({ command: 'ADD', containerId: pod, namespace: 'default', pod, netConf: netConf(s.name, dir, keys) });
      if (out.exitCode === 0 && resultAddresses(out.stdout).length === 1) {
        s.placed += 1;
        placed += 1;
        continue;
      }
      s.failed = true;
      first ??= { node: s.name, afterPods: placed };
      if (target === undefined) return { first, unable: [] };
    }
  }
  return { first, unable: state.filter((s) => s.failed).map((s) => s.name) };
}

/**
 * `ipamkit-sim run --what-if` (design/sim.md, "What-if replay"): predict with the planner, make the
 * change for real on a fresh datastore, fill through the CNI plugin to the first failure, and
 * compare the two.
 */
export async function replayWhatIf(o: ReplayOptions): Promise<ReplayResult> {
  const dir = mkdtempSync(join(tmpdir(), 'ipamkit-sim-what-if-'));
  const runOptions: RunOptions = { ...RUN_DEFAULTS, datastore: o.datastore, ...definedFields({ sqlitePath: o.sqlitePath, etcdEndpoints: o.etcdEndpoints }) };
  const backend = await openBackend(runOptions, dir);
  try {
    const ds = backend.ds;
    for (const pool of REPLAY_POOLS) await ds.ipPools.create(pool);
    await ds.ipamConfig.create({ strictAffinity: false, autoAllocateBlocks: true, maxBlocksPerHost: 0, ipCooldownSeconds: 0 });
    for (let i = 0; i < o.nodes; i += 1) await ds.nodes.create({ name: `node-${String(i).padStart(3, '0')}` });
    const snapshot = await loadClusterSnapshot(ds, systemClock.now());
    const changed = applyWhatIf(snapshot, o.replay.change);
    const report = computeRunway(changed, definedFields({ ipVersions: [4 as const], podsPerNode: o.replay.podsPerNode }));
    await applyForReal(ds, snapshot.pools, o.replay.change);
    const nodes = (await ds.nodes.list()).map((n) => n.name);
    const capacity = changed.pools.reduce((sum, p) => sum + 2 ** (32 - Number(p.cidr.split('/')[1])), 0);
    const real = await fillThroughCni(inProcessDriver(ds), nodes, dir, backend.confKeys, o.replay.podsPerNode, capacity + nodes.length);
    const first = report.firstFailure;
    const predicted = first === undefined ? undefined : { node: first.node, afterPods: first.afterPods, limit: first.failure.limit, reason: first.failure.reason };
    const blockAddresses = Math.max(...changed.pools.map((p) => 2 ** (32 - applyIPPoolDefaults(p).blockSize)));
    const tolerance = predicted?.limit === 'pools-exhausted' ? blockAddresses : 0;
    if (o.replay.podsPerNode !== undefined) {
      const unable = { predicted: report.nodes.filter((n) => n.reachesTarget === false).map((n) => n.node), real: real.unable };
      return { changes: o.replay.lines, predicted, real: real.first, tolerance, unable, agrees: JSON.stringify(unable.predicted) === JSON.stringify(unable.real) };
    }
    const agrees =
      predicted !== undefined &&
      real.first !== undefined &&
      Math.abs(predicted.afterPods - real.first.afterPods) <= tolerance &&
      (tolerance > 0 || predicted.node === real.first.node);
    return { changes: o.replay.lines, predicted, real: real.first, tolerance, unable: undefined, agrees };
  } finally {
    await backend.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function renderReplay(r: ReplayResult): string {
  const line = (label: string, f: ReplayFailure | undefined, extra = ''): string =>
    `${label}${f === undefined ? 'no allocation failed' : `first failure on ${f.node} after ${f.afterPods} pods`}${extra}\n`;
  const out = [
    `what-if replay: ${r.changes.join('; ')}\n`,
    line('predicted: ', r.predicted, r.predicted === undefined ? '' : ` (${r.predicted.limit}: ${r.predicted.reason})`),
    line('real:      ', r.real),
  ];
  if (r.unable !== undefined) out.push(`unable to reach the target: predicted [${r.unable.predicted.join(', ')}], real [${r.unable.real.join(', ')}]\n`);
  out.push(`${r.agrees ? 'agree' : 'DISAGREE'}${r.tolerance > 0 ? ` (within ${r.tolerance} pods: one block)` : ' (exactly)'}\n`);
  return out.join('');
}

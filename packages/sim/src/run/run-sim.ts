import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ipamShow, renderShow, type ClusterState } from '@ipamkit/cli';
import { GcController } from '@ipamkit/gc';
import { countingDatastore, createIpamClient, systemClock } from '@ipamkit/ipam-core';
import { createDatastore } from '@ipamkit/ipam-datastore';
import { LbController, MemoryLbClusterView } from '@ipamkit/lb-alloc';
import { type Datastore, seededRandom } from '@ipamkit/models';
import { reconcileTunnelAddresses } from '@ipamkit/tunnel-alloc';
import { finalCheck, type FinalCheckResult } from '../checks/final-check.js';
import { SequenceMonitor } from '../checks/sequence-monitor.js';
import { startLocalEtcd, type LocalEtcd } from '../datastore/local-etcd.js';
import { simDatastoreConfig } from '../datastore/sim-datastore-config.js';
import { SimStepError } from '../errors.js';
import { inProcessDriver, spawnDriver } from './cni-driver.js';
import { LatencyRecorder, type LatencySummary } from './latency-recorder.js';
import { netConfFor, runNodeWorker, type ChurnStats } from './node-worker.js';
import { ProgressBar, type ProgressSink } from './progress-bar.js';
import { resolveRunOptions, type RunOptions } from './run-options.js';
import { settle } from './settle.js';
import { SimCluster } from './sim-cluster.js';
import { SIM_POOLS } from './sim-pools.js';
import { collectHeatmaps, type PoolHeatmap } from '../report/collect-heatmaps.js';

export interface SimHooks {
  /** Progress bar target (drawn only when it is a TTY). */
  readonly progress?: ProgressSink;
  /** Runs after the cluster settled, before the final check: the place to inject faults (tests). */
  readonly beforeCheck?: (ds: Datastore) => Promise<void>;
}

export interface SimResult {
  readonly options: RunOptions;
  readonly durationMs: number;
  readonly churnMs: number;
  readonly stats: ChurnStats;
  readonly allocationsPerSecond: number;
  readonly latency: { readonly add: LatencySummary; readonly del: LatencySummary };
  /** Undefined with `--spawn` (the bin's own datastore cannot be counted). */
  readonly roundTripsPerAdd: number | undefined;
  readonly nodesDeleted: number;
  readonly servicesCreated: number;
  readonly servicesDeleted: number;
  readonly tunnelAddresses: number;
  readonly settleMs: number;
  /** Time of the `ipam show` utilization read of the final state. */
  readonly utilizationMs: number;
  readonly showTable: string;
  readonly check: FinalCheckResult;
  readonly heatmaps: PoolHeatmap[];
  readonly samples: LatencyRecorder['samples'];
}

export interface Backend {
  readonly ds: Datastore;
  readonly confKeys: Record<string, unknown>;
  close(): Promise<void>;
}

export async function openBackend(o: RunOptions, dir: string): Promise<Backend> {
  if (o.datastore === 'sqlite') {
    const path = o.sqlitePath ?? join(dir, 'ipam.db');
    const ds = await createDatastore(simDatastoreConfig({ datastore: 'sqlite', sqlitePath: path }, {}));
    return { ds, confKeys: { datastore_type: 'sqlite', sqlite_path: path }, close: () => ds.close() };
  }
  let etcd: LocalEtcd | undefined;
  const endpoints = o.etcdEndpoints ?? [(etcd = await startLocalEtcd()).endpoint];
  const prefix = `/ipamkit-sim-${process.pid}-${Date.now()}`;
  // An external etcd takes its TLS files and credentials from the environment; the one we started has none.
  const ds = await createDatastore(simDatastoreConfig({ datastore: 'etcd', etcdEndpoints: endpoints, etcdPrefix: prefix }, etcd === undefined ? process.env : {}));
  return {
    ds,
    confKeys: { datastore_type: 'etcdv3', etcd_endpoints: endpoints.join(','), etcd_prefix: prefix },
    close: async () => {
      await ds.close();
      await etcd?.stop();
    },
  };
}

/** Pools, nodes and their tunnel addresses; returns how many tunnel addresses were assigned. */
async function createCluster(ds: Datastore, cluster: SimCluster): Promise<number> {
  for (const pool of SIM_POOLS) await ds.ipPools.create(pool);
  const ipam = createIpamClient({ datastore: ds, clock: systemClock });
  let tunnels = 0;
  for (const node of cluster.nodes) {
    await ds.nodes.create({ name: node.name, labels: node.labels });
    const result = await reconcileTunnelAddresses({ datastore: ds, ipam, nodeName: node.name });
    tunnels += result.decisions.filter((d) => d.enabled).length;
  }
  return tunnels;
}

/**
 * `ipamkit-sim run` (design/sim.md, "The run"): a cluster on a fresh datastore, pod churn through the
 * real CNI entry point, LoadBalancer Services, node deletions and the GC with a short grace period,
 * then settling and the final check. Never throws for a broken invariant: the result carries it.
 */
export async function runSim(partial: Partial<RunOptions> = {}, hooks: SimHooks = {}): Promise<SimResult> {
  const o = resolveRunOptions(partial);
  const started = Date.now();
  const dir = mkdtempSync(join(tmpdir(), 'ipamkit-sim-'));
  const backend = await openBackend(o, dir).catch((err: unknown) => {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  });
  const { ds } = backend;
  const stops: (() => Promise<void>)[] = [];
  try {
    const random = seededRandom(o.seed);
    const cluster = new SimCluster(o.nodes, o.pods, o.churn, dir);
    const tunnelAddresses = await createCluster(ds, cluster);
    const sequence = new SequenceMonitor(ds);
    await sequence.start();
    stops.push(() => sequence.stop());

    const gc = new GcController({ datastore: ds, view: cluster.view, leakGracePeriodMs: o.gracePeriodMs, nodeSource: 'cluster-view', deleteNodes: false, batchWaitMs: 100 });
    await gc.start();
    stops.push(() => gc.stop());
    const lbView = new MemoryLbClusterView();
    const lb = new LbController({ datastore: ds, view: lbView, fullSyncIntervalMs: 0 });
    await lb.start();
    stops.push(() => lb.stop());
    cluster.view.setServicesWatched(true);
    for (let i = 0; i < o.services; i++) {
      lbView.upsertService({ name: `svc-${i}`, namespace: 'default' });
      cluster.view.upsertService('default', `svc-${i}`);
    }

    const recorder = new LatencyRecorder();
    const stats: ChurnStats = { adds: 0, dels: 0, lostDeletes: 0, failures: 0, addRoundTrips: 0 };
    const totalSteps = cluster.nodes.reduce((n, node) => n + node.slots.reduce((m, s) => m + s.stepsLeft, 0), 0);
    const bar = new ProgressBar(hooks.progress, totalSteps, 'churn');
    let steps = 0;
    const deleteCount = Math.floor(o.nodes * o.nodeDeleteRatio);
    const stride = Math.max(1, Math.floor(o.nodes / Math.max(1, deleteCount)));
    // Evenly spread, never node 0, so both zones lose nodes on larger runs.
    const toDelete = new Set(Array.from({ length: deleteCount }, (_, j) => cluster.nodes[(j * stride + 1) % o.nodes]?.name ?? ''));
    let midpoint: Promise<void> | undefined;
    let servicesDeleted = 0;
    const atMidpoint = async (): Promise<void> => {
      // Half way: nodes die with their pods (no CNI DEL) and a quarter of the Services go.
      for (const node of cluster.nodes.filter((n) => toDelete.has(n.name))) {
        node.deleted = true;
        for (const slot of node.slots) {
          if (slot.live !== undefined) cluster.podGone(slot.live);
          slot.live = undefined;
        }
        cluster.deletedNodes.add(node.name);
        cluster.view.deleteNode(node.name);
        await ds.nodes.delete(node.name);
      }
      for (let i = 0; i < Math.floor(o.services / 4); i++) {
        lbView.deleteService('default', `svc-${i}`);
        cluster.view.deleteService('default', `svc-${i}`);
        servicesDeleted += 1;
      }
    };
    const workers = cluster.nodes.map((node) => {
      const counting = countingDatastore(ds);
      // The simulator owns the real datastore: a view must never close it.
      const driver = o.spawn ? spawnDriver() : inProcessDriver({ ...counting.datastore, close: () => Promise.resolve() });
      return runNodeWorker(node, {
        cluster,
        driver,
        recorder,
        stats,
        random,
        lostDeleteRatio: o.lostDeleteRatio,
        roundTrips: o.spawn ? undefined : () => counting.counts().requests,
        netConf: (n) => netConfFor(n, backend.confKeys),
        onStep: () => {
          steps += 1;
          bar.update(steps, `${stats.failures} failed`);
          if (midpoint === undefined && steps >= totalSteps / 2) midpoint = atMidpoint();
        },
      });
    });
    await Promise.all(workers);
    await midpoint;
    bar.done();
    const churnMs = recorder.elapsedMs();
    await lb.syncNow();
    await lb.whenIdle();

    const settled = await settle({ ds, gc, target: cluster, timeoutMs: o.settleTimeoutMs, pollMs: Math.min(500, o.gracePeriodMs) });
    await hooks.beforeCheck?.(ds);
    const services: ClusterState['services'] = [...lbView.listServices()].map((s) => ({ namespace: s.namespace, name: s.name, ingressIPs: [...s.ingressIPs] }));
    const pods: ClusterState['pods'] = cluster.livePods().map(({ node, pod }) => ({ namespace: pod.namespace, name: pod.name, nodeName: node.name, phase: 'Running', ips: pod.ips }));
    const check = await finalCheck({ datastore: ds, clock: systemClock, cluster: { pods, services }, goneHandles: cluster.goneHandles, sequence: sequence.tracker });
    check.violations.unshift(...settled.left.map((l) => `GC did not settle (timeout ${o.settleTimeoutMs} ms): ${l}`));
    if (stats.failures > 0) check.violations.unshift(`${stats.failures} CNI call(s) failed; first: ${stats.firstFailure ?? ''}`);
    const showStart = performance.now();
    const show = await ipamShow({ datastore: ds, clock: systemClock }, {});
    const utilizationMs = performance.now() - showStart;
    const heatmaps = await collectHeatmaps(ds);
    return {
      options: o,
      durationMs: Date.now() - started,
      churnMs,
      stats,
      allocationsPerSecond: churnMs > 0 ? (stats.adds * 1000) / churnMs : 0,
      latency: { add: recorder.summary('add'), del: recorder.summary('del') },
      roundTripsPerAdd: o.spawn || stats.adds === 0 ? undefined : stats.addRoundTrips / stats.adds,
      nodesDeleted: cluster.deletedNodes.size,
      servicesCreated: o.services,
      servicesDeleted,
      tunnelAddresses,
      settleMs: settled.ms,
      utilizationMs,
      showTable: renderShow(show),
      check,
      heatmaps,
      samples: recorder.samples,
    };
  } catch (err) {
    throw err instanceof SimStepError ? err : new SimStepError('run', err instanceof Error ? err.message : String(err), { cause: err });
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
    await backend.close().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
  }
}

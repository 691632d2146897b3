import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { GcController } from '@ipamkit/gc';
import { systemClock } from '@ipamkit/ipam-core';
import { createDatastore, type DatastoreConfig } from '@ipamkit/ipam-datastore';
import { retry, seededRandom } from '@ipamkit/models';
import { finalCheck } from '../checks/final-check.js';
import { SequenceMonitor } from '../checks/sequence-monitor.js';
import { startLocalEtcd, type LocalEtcd } from '../datastore/local-etcd.js';
import { SimStepError } from '../errors.js';
import { resultAddresses } from '../run/cni-driver.js';
import { netConfFor } from '../run/node-worker.js';
import type { ProgressSink } from '../run/progress-bar.js';
import { ProgressBar } from '../run/progress-bar.js';
import { settle } from '../run/settle.js';
import { SimCluster, type SimNode } from '../run/sim-cluster.js';
import { AllocatorProcess } from './allocator-process.js';
import { driveAll } from './drive-all.js';
import { runAllCallers } from './run-all-callers.js';
import { resolveHammerOptions, type HammerOptions } from './hammer-options.js';

export interface HammerResult {
  readonly options: HammerOptions;
  readonly durationMs: number;
  readonly opsPerSecond: number;
  readonly adds: number;
  readonly dels: number;
  readonly kills: number;
  /** Calls that failed without a kill (expected while etcd restarts). */
  readonly failures: number;
  readonly etcdRestarts: number;
  readonly watchRestarts: number;
  readonly sequenceObservations: number;
  readonly settleMs: number;
  readonly allocationsAtEnd: number;
  readonly violations: string[];
  /** Present for `--all-callers` runs. */
  readonly allCallers?: AllCallersStats;
}

/** What an all-callers run adds to the report (design/sim.md, "All callers"). */
export interface AllCallersStats {
  /** `calico-ipam` processes spawned (one per CNI call). */
  readonly cniProcesses: number;
  readonly cniKills: number;
  /** GC, lb-alloc and one tunnel-alloc per node. */
  readonly controllerProcesses: number;
  readonly controllerKills: number;
  readonly controllerStarts: number;
  readonly servicesCreated: number;
  readonly servicesDeleted: number;
  readonly servicesAtEnd: number;
  readonly faultsInjected: { readonly 409: number; readonly 500: number; readonly 410: number };
  /** Retries of the cluster's own API writes (pods, Services) after an injected fault. */
  readonly clusterRetries: number;
  readonly duplicates: number;
  readonly leaks: number;
  readonly drift: number;
}

/** The built allocator entry: next to this file in dist/, or in dist/ when running from src/. */
export function hammerWorkerPath(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  const candidates = [join(here, 'hammer-worker.js'), join(here, '..', '..', 'dist', 'hammer-worker.js')];
  const found = candidates.find((p) => existsSync(p));
  if (found === undefined) throw new SimStepError('hammer', `hammer-worker.js not found (looked in ${candidates.join(', ')}): build @ipamkit/sim first`);
  return found;
}

const START_ATTEMPTS = 4;
/** 2 s, then 4 s, then 8 s between attempts to start an allocator process. */
const START_BACKOFF = { baseMs: 2_000, capMs: 8_000 };
const POOL = { name: 'hammer-v4', cidr: '10.200.0.0/16', blockSize: 26 };

/**
 * `ipamkit-sim hammer` (design/sim.md, "The hammer"): allocator processes against one datastore,
 * the GC running, random SIGKILLs mid-operation, optionally one etcd restart; then the accounting
 * checks of design/calico-callers.md#accounting-checks once the GC has settled.
 */
export async function runHammer(partial: Partial<HammerOptions> = {}, progress?: ProgressSink): Promise<HammerResult> {
  const o = resolveHammerOptions(partial);
  if (o.allCallers) return runAllCallers(o, progress);
  const workerPath = hammerWorkerPath();
  const started = Date.now();
  const dir = mkdtempSync(join(tmpdir(), 'ipamkit-hammer-'));
  let etcd: LocalEtcd | undefined;
  const cleanups: (() => Promise<void>)[] = [async () => Promise.resolve(rmSync(dir, { recursive: true, force: true }))];
  const procs: (AllocatorProcess | undefined)[] = [];
  try {
    let config: DatastoreConfig;
    let confKeys: Record<string, unknown>;
    if (o.datastore === 'etcd') {
      const e = await startLocalEtcd();
      etcd = e;
      cleanups.push(() => e.stop());
      config = { type: 'etcd', endpoints: [e.endpoint], prefix: '/hammer' };
      confKeys = { datastore_type: 'etcdv3', etcd_endpoints: e.endpoint, etcd_prefix: '/hammer' };
    } else {
      if (o.datastore !== 'sqlite') throw new SimStepError('hammer', `the allocator hammer runs on sqlite or etcd, not ${o.datastore}`);
      const path = join(dir, 'ipam.db');
      config = { type: 'sqlite', path };
      confKeys = { datastore_type: 'sqlite', sqlite_path: path };
    }
    const ds = await createDatastore(config);
    cleanups.push(() => ds.close());
    const cluster = new SimCluster(o.processes, o.processes * o.podsPerProcess, 1, dir);
    await ds.ipPools.create(POOL);
    for (const node of cluster.nodes) await ds.nodes.create({ name: node.name, labels: node.labels });
    const sequence = new SequenceMonitor(ds);
    await sequence.start();
    cleanups.push(() => sequence.stop());
    const gc = new GcController({ datastore: ds, view: cluster.view, leakGracePeriodMs: o.gracePeriodMs, nodeSource: 'cluster-view', deleteNodes: false, batchWaitMs: 100 });
    await gc.start();
    cleanups.push(() => gc.stop());

    const workerConfig = (node: SimNode): { datastore: DatastoreConfig; netConf: string } => ({ datastore: config, netConf: netConfFor(node, { ...confKeys, ipam: { type: 'calico-ipam', assign_ipv4: 'true' } }) });
    const startAllocator = async (node: SimNode): Promise<AllocatorProcess> => {
      // A start can fail for reasons outside the hammer (a dependency's dist/ being rebuilt on a
      // shared checkout): retry a few times before giving the run up.
      return retry(() => AllocatorProcess.start(workerPath, workerConfig(node)), { attempts: START_ATTEMPTS, isRetryable: () => !aborted, backoff: START_BACKOFF });
    };
    let aborted = false;
    for (const node of cluster.nodes) procs.push(await startAllocator(node));

    const random = seededRandom(o.seed);
    const bar = new ProgressBar(progress, o.ops, 'hammer');
    let issued = 0;
    let adds = 0;
    let dels = 0;
    let kills = 0;
    let failures = 0;
    let etcdRestarts = 0;
    let restart: Promise<void> | undefined;
    const drive = async (index: number, node: SimNode): Promise<void> => {
      while (issued < o.ops && !aborted) {
        issued += 1;
        if (o.restartEtcd && etcd !== undefined && restart === undefined && issued >= o.ops / 2) {
          const e = etcd;
          restart = e.restart().then(() => {
            etcdRestarts += 1;
          });
        }
        const proc = procs[index];
        if (proc === undefined) return;
        const live = node.slots.filter((s) => s.live !== undefined);
        const free = node.slots.filter((s) => s.live === undefined);
        const doAdd = free.length > 0 && (live.length === 0 || random() < 0.55);
        const slot = (doAdd ? free : live)[Math.floor(random() * (doAdd ? free : live).length)];
        if (slot === undefined) continue;
        const pod = doAdd ? cluster.newPod(node, slot) : slot.live;
        if (pod === undefined) continue;
        if (!doAdd) {
          slot.live = undefined;
          cluster.podGone(pod);
        }
        const killNow = random() < o.killRate;
        if (killNow) setTimeout(() => void proc.kill(), Math.floor(random() * 4));
        const out = await proc.call({ command: doAdd ? 'ADD' : 'DEL', containerId: pod.containerId, namespace: pod.namespace, pod: pod.name });
        if ('killed' in out) {
          // The node's runtime lost the plugin mid-call: every pod it was setting up or running is
          // torn down without a DEL, and only the GC can give the addresses back.
          kills += 1;
          if (doAdd) cluster.podGone(pod);
          for (const s of node.slots) {
            if (s.live !== undefined) cluster.podGone(s.live);
            s.live = undefined;
          }
          procs[index] = await startAllocator(node);
        } else if (doAdd) {
          adds += 1;
          if (out.exitCode === 0) {
            slot.live = pod;
            cluster.podRunning(node, pod, resultAddresses(out.stdout));
          } else {
            failures += 1;
            cluster.podGone(pod);
          }
        } else {
          dels += 1;
          if (out.exitCode !== 0) failures += 1;
        }
        bar.update(issued, `${kills} kills, ${failures} failed`);
      }
    };
    await driveAll(cluster.nodes.map((node, i) => drive(i, node)), () => (aborted = true));
    await restart;
    bar.done();
    const opsMs = Date.now() - started;
    await Promise.all(procs.map((p) => p?.stop() ?? Promise.resolve()));

    const settled = await settle({ ds, gc, target: cluster, timeoutMs: o.settleTimeoutMs, pollMs: Math.min(500, o.gracePeriodMs) });
    const pods = cluster.livePods().map(({ node, pod }) => ({ namespace: pod.namespace, name: pod.name, nodeName: node.name, phase: 'Running', ips: pod.ips }));
    const check = await finalCheck({ datastore: ds, clock: systemClock, cluster: { pods, services: [] }, goneHandles: cluster.goneHandles, sequence: sequence.tracker });
    const violations = [...settled.left.map((l) => `not released within ${o.settleTimeoutMs} ms of the last operation: ${l}`), ...check.violations];
    return {
      options: o,
      durationMs: Date.now() - started,
      opsPerSecond: (issued * 1000) / Math.max(1, opsMs),
      adds,
      dels,
      kills,
      failures,
      etcdRestarts,
      watchRestarts: sequence.restarts,
      sequenceObservations: sequence.tracker.observed,
      settleMs: settled.ms,
      allocationsAtEnd: check.allocations,
      violations: [...new Set(violations)],
    };
  } finally {
    await Promise.all(procs.map((p) => p?.kill() ?? Promise.resolve()));
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
  }
}

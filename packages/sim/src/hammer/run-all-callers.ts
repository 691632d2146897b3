import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '@ipamkit/ipam-core';
import { createDatastore, type DatastoreConfig } from '@ipamkit/ipam-datastore';
import { seededRandom, sleep } from '@ipamkit/models';
import { finalCheck, type FinalCheckResult } from '../checks/final-check.js';
import { resultAddresses } from '../run/cni-driver.js';
import { netConfFor } from '../run/node-worker.js';
import { ProgressBar, type ProgressSink } from '../run/progress-bar.js';
import { NAMESPACES, SimCluster, type SimNode } from '../run/sim-cluster.js';
import { packageFile, simDistFile } from './all-callers-paths.js';
import { execCni } from './cni-exec.js';
import { driveAll } from './drive-all.js';
import type { HammerOptions } from './hammer-options.js';
import { KubeApiHandle } from './kube-api-handle.js';
import { KubeClusterClient } from './kube-cluster-client.js';
import type { AllCallersStats, HammerResult } from './run-hammer.js';
import { SupervisedProcess } from './supervised-process.js';

const POD_POOL = { name: 'hammer-v4', cidr: '10.200.0.0/16', blockSize: 26, ipipMode: 'Always' as const };
const LB_POOL = { name: 'hammer-lb', cidr: '10.201.0.0/24', blockSize: 28, allowedUses: ['LoadBalancer' as const] };
const SERVICE_NAMESPACE = 'default';

/**
 * `ipamkit-sim hammer --all-callers` (design/sim.md, "All callers"): every caller of IPAM at once,
 * each as its own process — `calico-ipam` spawned per CNI call, the GC and lb-alloc bins as
 * Deployments, tunnel-alloc as a DaemonSet — against SQLite or the Kubernetes API test server (a
 * process of its own, injecting 409/500/410 at `faultRate`). CNI and controller processes are
 * SIGKILLed at random and controllers restarted. Then faults stop, the controllers run until the
 * checks hold (or the settle timeout), and the final check judges duplicates, leaks and drift.
 */
export async function runAllCallers(o: HammerOptions, progress?: ProgressSink): Promise<HammerResult> {
  const started = Date.now();
  const dir = mkdtempSync(join(tmpdir(), 'ipamkit-hammer-all-'));
  const controllers: SupervisedProcess[] = [];
  let kube: KubeApiHandle | undefined;
  let killer: NodeJS.Timeout | undefined;
  const closers: (() => Promise<void>)[] = [];
  try {
    const kubernetes = o.datastore === 'kubernetes';
    const token = randomUUID();
    const kubeconfig = join(dir, 'kubeconfig');
    const sqlitePath = join(dir, 'ipam.db');
    const k = await KubeApiHandle.start(simDistFile('kube-api-process.js'), {
      kubeconfigPath: kubeconfig,
      crdDirectory: packageFile('@ipamkit/ipam-datastore', 'manifests', 'crds'),
      faultRate: 0,
      seed: o.seed,
      namespaces: [...new Set(['default', 'kube-system', ...NAMESPACES])],
      token,
    });
    kube = k;
    const client = new KubeClusterClient({ url: k.url, token });
    const config: DatastoreConfig = kubernetes ? { type: 'kubernetes', kubeconfig } : { type: 'sqlite', path: sqlitePath };
    const dsEnv: Record<string, string> = kubernetes ? { DATASTORE_TYPE: 'kubernetes', KUBECONFIG: kubeconfig } : { DATASTORE_TYPE: 'sqlite', IPAMKIT_SQLITE_PATH: sqlitePath, KUBECONFIG: kubeconfig };
    const confKeys: Record<string, unknown> = kubernetes ? { datastore_type: 'kubernetes', kubernetes: { kubeconfig } } : { datastore_type: 'sqlite', sqlite_path: sqlitePath };
    const ds = await createDatastore(config);
    closers.push(() => ds.close());

    // Setup happens before faults are on: the cluster exists before its callers start.
    await ds.ipPools.create(POD_POOL);
    await ds.ipPools.create(LB_POOL);
    const cluster = new SimCluster(o.processes, o.processes * o.podsPerProcess, 1, dir);
    for (const node of cluster.nodes) {
      await ds.nodes.create({ name: node.name, labels: node.labels });
      await client.createNode(node.name, node.labels);
    }

    const restartDelayMs = 200;
    controllers.push(
      new SupervisedProcess({ name: 'gc', script: packageFile('@ipamkit/gc', 'dist', 'bin.js'), args: ['--leak-grace-period', `${o.gracePeriodMs}ms`, '--metrics-port=-1'], env: dsEnv, restartDelayMs }),
      new SupervisedProcess({ name: 'lb-alloc', script: packageFile('@ipamkit/lb-alloc', 'dist', 'bin.js'), args: ['--metrics-port=-1', '--full-sync-interval-seconds', '5'], env: dsEnv, restartDelayMs }),
      ...cluster.nodes.map((node) => new SupervisedProcess({ name: `tunnel-alloc/${node.name}`, script: packageFile('@ipamkit/tunnel-alloc', 'dist', 'bin.js'), args: [], env: { ...dsEnv, NODENAME: node.name }, restartDelayMs })),
    );
    for (const c of controllers) c.start();
    await k.setFaultRate(o.faultRate);

    const random = seededRandom(o.seed);
    const cniBin = packageFile('@ipamkit/cni', 'dist', 'calico-ipam.cjs');
    const bar = new ProgressBar(progress, o.ops, 'hammer --all-callers');
    const stats = { adds: 0, dels: 0, cniKills: 0, failures: 0, servicesCreated: 0, servicesDeleted: 0 };
    let issued = 0;
    let aborted = false;
    const tickMs = 100;
    if (o.controllerKillMs > 0) {
      killer = setInterval(() => {
        if (random() >= tickMs / o.controllerKillMs) return;
        const victim = controllers[Math.floor(random() * controllers.length)];
        victim?.kill();
      }, tickMs);
    }

    const podGone = async (pod: { namespace: string; name: string }): Promise<void> => client.deletePod(pod.namespace, pod.name);
    const driveNode = async (node: SimNode): Promise<void> => {
      const netConf = netConfFor(node, { ...confKeys, ipam: { type: 'calico-ipam', assign_ipv4: 'true' } });
      while (issued < o.ops && !aborted) {
        issued += 1;
        const live = node.slots.filter((s) => s.live !== undefined);
        const free = node.slots.filter((s) => s.live === undefined);
        const doAdd = free.length > 0 && (live.length === 0 || random() < 0.55);
        const pool = doAdd ? free : live;
        const slot = pool[Math.floor(random() * pool.length)];
        if (slot === undefined) continue;
        const pod = doAdd ? cluster.newPod(node, slot) : slot.live;
        if (pod === undefined) continue;
        const killAfterMs = random() < o.killRate ? Math.floor(random() * 150) : undefined;
        if (doAdd) {
          await client.createPod(pod.namespace, pod.name, node.name);
        } else {
          // The pod object goes first, then the kubelet tears the sandbox down (CNI DEL).
          slot.live = undefined;
          cluster.podGone(pod);
          await podGone(pod);
        }
        const out = await execCni(cniBin, { command: doAdd ? 'ADD' : 'DEL', containerId: pod.containerId, namespace: pod.namespace, pod: pod.name, netConf, killAfterMs });
        if (out.killed) {
          stats.cniKills += 1;
          // The sandbox never came up (or its teardown died): the pod is deleted with no DEL, and
          // only the GC can give its address back.
          if (doAdd) {
            cluster.podGone(pod);
            await podGone(pod);
          }
        } else if (doAdd) {
          stats.adds += 1;
          if (out.exitCode === 0) {
            const ips = resultAddresses(out.stdout);
            slot.live = pod;
            cluster.podRunning(node, pod, ips);
            await client.podRunning(pod.namespace, pod.name, ips);
          } else {
            stats.failures += 1;
            cluster.podGone(pod);
            await podGone(pod);
          }
        } else {
          stats.dels += 1;
          if (out.exitCode !== 0) stats.failures += 1;
        }
        bar.update(issued, `${stats.cniKills} CNI kills, ${controllers.reduce((n, c) => n + c.kills, 0)} controller kills, ${stats.failures} failed`);
      }
    };
    const services = new Set<string>();
    let serviceSerial = 0;
    const driveServices = async (): Promise<void> => {
      while (issued < o.ops && !aborted) {
        await sleep(250 + Math.floor(random() * 500));
        if (services.size < o.services && (services.size === 0 || random() < 0.6)) {
          const name = `hammer-svc-${serviceSerial++}`;
          await client.createService(SERVICE_NAMESPACE, name);
          services.add(name);
          stats.servicesCreated += 1;
        } else {
          const name = [...services][Math.floor(random() * services.size)];
          if (name === undefined) continue;
          services.delete(name);
          await client.deleteService(SERVICE_NAMESPACE, name);
          stats.servicesDeleted += 1;
        }
      }
    };
    await driveAll([...cluster.nodes.map((node) => driveNode(node)), driveServices()], () => (aborted = true));
    bar.done();
    const opsMs = Date.now() - started;

    // Settle: faults off, no more kills, every controller running; then wait until quiet.
    if (killer !== undefined) clearInterval(killer);
    const afterFaults = await k.setFaultRate(0);
    const settleStart = Date.now();
    let check: FinalCheckResult | undefined;
    let listed: Awaited<ReturnType<KubeClusterClient['listServices']>> = [];
    for (;;) {
      listed = await client.listServices();
      const pods = cluster.livePods().map(({ node, pod }) => ({ namespace: pod.namespace, name: pod.name, nodeName: node.name, phase: 'Running', ips: pod.ips }));
      check = await finalCheck({ datastore: ds, clock: systemClock, cluster: { pods, services: listed }, goneHandles: cluster.goneHandles });
      const wanting = listed.filter((s) => s.ingressIPs.length === 0).length;
      if ((check.violations.length === 0 && wanting === 0) || Date.now() - settleStart > o.settleTimeoutMs) break;
      await sleep(Math.min(1000, o.gracePeriodMs));
    }
    const settleMs = Date.now() - settleStart;
    const violations = [...check.violations];
    for (const s of listed) if (s.ingressIPs.length === 0) violations.push(`service ${s.namespace}/${s.name} has no address ${o.settleTimeoutMs} ms after the last operation`);
    for (const c of controllers) {
      // Every start but the first follows a kill, unless the process exited on its own.
      const unexplained = c.starts - 1 - c.kills;
      if (unexplained > 0) violations.push(`controller ${c.spec.name} exited ${unexplained} time(s) without being killed; last stderr: ${lastLine(c.lastStderr)}`);
    }
    const allCallers: AllCallersStats = {
      cniProcesses: stats.adds + stats.dels + stats.cniKills,
      cniKills: stats.cniKills,
      controllerProcesses: controllers.length,
      controllerKills: controllers.reduce((n, c) => n + c.kills, 0),
      controllerStarts: controllers.reduce((n, c) => n + c.starts, 0),
      servicesCreated: stats.servicesCreated,
      servicesDeleted: stats.servicesDeleted,
      servicesAtEnd: listed.length,
      faultsInjected: { ...afterFaults.injected },
      clusterRetries: client.retries,
      duplicates: check.duplicates,
      leaks: check.violations.filter((v) => v.includes('leak') || v.includes('still allocated') || v.includes('releasable')).length,
      drift: check.violations.filter((v) => v.includes('counts') || v.includes('does not exist')).length,
    };
    return {
      options: o,
      durationMs: Date.now() - started,
      opsPerSecond: (issued * 1000) / Math.max(1, opsMs),
      adds: stats.adds,
      dels: stats.dels,
      kills: stats.cniKills + allCallers.controllerKills,
      failures: stats.failures,
      etcdRestarts: 0,
      watchRestarts: 0,
      sequenceObservations: 0,
      settleMs,
      allocationsAtEnd: check.allocations,
      violations: [...new Set(violations)],
      allCallers,
    };
  } finally {
    if (killer !== undefined) clearInterval(killer);
    await Promise.all(controllers.map((c) => c.stop()));
    for (const c of closers.reverse()) await c().catch(() => undefined);
    await kube?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The last non-empty line of a process's stderr, cut to 300 characters. */
function lastLine(text: string): string {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  return (lines[lines.length - 1] ?? '(nothing)').slice(0, 300);
}

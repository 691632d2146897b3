import type { CniDriver } from './cni-driver.js';
import { resultAddresses } from './cni-driver.js';
import type { LatencyRecorder } from './latency-recorder.js';
import { NETWORK_NAME, type SimCluster, type SimNode } from './sim-cluster.js';

/** Counters the node workers share. */
export interface ChurnStats {
  adds: number;
  dels: number;
  lostDeletes: number;
  failures: number;
  firstFailure?: string;
  /** Datastore round trips made during ADDs (in-process mode only). */
  addRoundTrips: number;
}

export interface WorkerContext {
  readonly cluster: SimCluster;
  readonly driver: CniDriver;
  readonly recorder: LatencyRecorder;
  readonly stats: ChurnStats;
  readonly random: () => number;
  readonly lostDeleteRatio: number;
  /** Round trips so far on this node's counting datastore; undefined when not countable. */
  readonly roundTrips: (() => number) | undefined;
  readonly netConf: (node: SimNode) => string;
  readonly onStep: () => void;
}

// Read through a call: the flag changes while a CNI call is awaited, which narrowing cannot see.
const isDeleted = (node: SimNode): boolean => node.deleted;

/**
 * Drives one node as its kubelet would: one CNI call at a time, pods added and deleted in a random
 * order of its slots. Stops when every slot's steps are done or the node is deleted.
 */
export async function runNodeWorker(node: SimNode, ctx: WorkerContext): Promise<void> {
  const { cluster, stats } = ctx;
  for (;;) {
    if (node.deleted) return;
    const pending = node.slots.filter((s) => s.stepsLeft > 0);
    if (pending.length === 0) return;
    const slot = pending[Math.floor(ctx.random() * pending.length)] ?? pending[0];
    if (slot === undefined) return;
    slot.stepsLeft -= 1;
    const conf = ctx.netConf(node);
    if (slot.live === undefined) {
      const pod = cluster.newPod(node, slot);
      const before = ctx.roundTrips?.() ?? 0;
      const out = await ctx.recorder.time('add', () => ctx.driver({ command: 'ADD', containerId: pod.containerId, namespace: pod.namespace, pod: pod.name, netConf: conf }));
      stats.adds += 1;
      stats.addRoundTrips += (ctx.roundTrips?.() ?? 0) - before;
      if (isDeleted(node)) {
        // The node went away while the sandbox was being set up: the pod went with it.
        cluster.podGone(pod);
      } else if (out.exitCode === 0) {
        cluster.podRunning(node, pod, resultAddresses(out.stdout));
        slot.live = pod;
      } else {
        stats.failures += 1;
        stats.firstFailure ??= `ADD ${pod.name} on ${node.name}: ${out.stdout.trim()}`;
        cluster.podGone(pod);
      }
    } else {
      const pod = slot.live;
      slot.live = undefined;
      // The pod object goes first, then the kubelet tears the sandbox down (CNI DEL).
      cluster.podGone(pod);
      if (ctx.random() < ctx.lostDeleteRatio) {
        stats.lostDeletes += 1;
      } else {
        const out = await ctx.recorder.time('del', () => ctx.driver({ command: 'DEL', containerId: pod.containerId, namespace: pod.namespace, pod: pod.name, netConf: conf }));
        stats.dels += 1;
        if (out.exitCode !== 0) {
          stats.failures += 1;
          stats.firstFailure ??= `DEL ${pod.name} on ${node.name}: ${out.stdout.trim()}`;
        }
      }
    }
    ctx.onStep();
  }
}

/** The network config a node's runtime passes to `calico-ipam`. */
export function netConfFor(node: SimNode, datastoreKeys: Record<string, unknown>): string {
  return JSON.stringify({
    cniVersion: '1.0.0',
    name: NETWORK_NAME,
    type: 'calico',
    nodename: node.name,
    ipam: { type: 'calico-ipam', assign_ipv4: 'true', assign_ipv6: 'true' },
    ipam_lock_file: node.lockFile,
    ...datastoreKeys,
  });
}

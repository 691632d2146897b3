import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { MemoryClusterView } from '@ipamkit/gc';
import { cniHandleId } from '@ipamkit/models';
import { ZONE_LABEL, zoneOf } from './sim-pools.js';

export const NETWORK_NAME = 'k8s-pod-network';
export const NAMESPACES = ['default', 'shop', 'batch'] as const;

/** One pod slot of a node: filled, emptied and filled again `churn` times. */
export interface PodSlot {
  readonly index: number;
  /** Steps still to run, alternating ADD and DEL, ending on an ADD. */
  stepsLeft: number;
  live?: LivePod | undefined;
}

export interface LivePod {
  readonly name: string;
  readonly namespace: string;
  readonly containerId: string;
  readonly handleId: string;
  ips: string[];
}

export interface SimNode {
  readonly name: string;
  readonly labels: Record<string, string>;
  readonly slots: PodSlot[];
  readonly lockFile: string;
  deleted: boolean;
  generation: number;
}

/**
 * What the simulator knows about its cluster: the nodes and pods it created, the GC's view of
 * them, and every handle whose owner is gone (each must end with no allocation).
 */
export class SimCluster {
  readonly nodes: SimNode[] = [];
  readonly view = new MemoryClusterView();
  readonly goneHandles = new Set<string>();
  readonly deletedNodes = new Set<string>();

  constructor(nodeCount: number, pods: number, churn: number, dir: string) {
    for (let i = 0; i < nodeCount; i++) {
      const name = `sim-node-${String(i).padStart(3, '0')}`;
      const share = Math.floor(pods / nodeCount) + (i < pods % nodeCount ? 1 : 0);
      const slots = Array.from({ length: share }, (_, index): PodSlot => ({ index, stepsLeft: 2 * churn - 1 }));
      this.nodes.push({ name, labels: { [ZONE_LABEL]: zoneOf(i) }, slots, lockFile: join(dir, `${name}.lock`), deleted: false, generation: 0 });
      this.view.upsertNode(name, { [ZONE_LABEL]: zoneOf(i) });
    }
  }

  /** A new pod for a slot, known to the cluster before its CNI ADD (as the kubelet sees it). */
  newPod(node: SimNode, slot: PodSlot): LivePod {
    node.generation += 1;
    const namespace = NAMESPACES[(slot.index + node.generation) % NAMESPACES.length] ?? 'default';
    const containerId = randomBytes(16).toString('hex');
    const pod: LivePod = { name: `${node.name}-p${slot.index}-g${node.generation}`, namespace, containerId, handleId: cniHandleId(NETWORK_NAME, containerId), ips: [] };
    this.view.upsertPod({ name: pod.name, namespace, nodeName: node.name, ips: [], phase: 'Running' });
    return pod;
  }

  podRunning(node: SimNode, pod: LivePod, ips: string[]): void {
    pod.ips = ips;
    this.view.upsertPod({ name: pod.name, namespace: pod.namespace, nodeName: node.name, ips, phase: 'Running' });
  }

  /** The pod object is gone; its handle must end with no allocation (by DEL, or by the GC). */
  podGone(pod: LivePod): void {
    this.view.deletePod(pod.namespace, pod.name);
    this.goneHandles.add(pod.handleId);
  }

  livePods(): { node: SimNode; pod: LivePod }[] {
    return this.nodes.flatMap((node) => node.slots.flatMap((s) => (s.live === undefined ? [] : [{ node, pod: s.live }])));
  }
}

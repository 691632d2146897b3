import {
  isLoadBalancerHandleId,
  parseTunnelHandleId,
  TUNNEL_ATTRIBUTE_TYPES,
  WINDOWS_RESERVED_HANDLE,
} from '@ipamkit/models';
import type { AllocationRecord } from './allocation-record.js';
import { isFinishedPod, type PodInfo, type ServiceInfo } from './cluster-state.js';

// The validity rules `check` applies to one allocation. They follow the garbage collector's rules
// (design/calico-callers.md#ipam-garbage-collector) but live here: callers do not import each other (design/architecture.md#layers), so
// packages/gc keeps its own copy. Keep the two in step (design/cli.md "Classifying allocations").

export type Classification =
  | 'workload'
  | 'tunnel'
  | 'load-balancer'
  | 'windows-reserved'
  | 'cooldown'
  | 'duplicate'
  | 'completed-pod'
  | 'leak'
  | 'unverified';

export interface Verdict {
  readonly classification: Classification;
  readonly reason: string;
  /** True only when releasing the address cannot take it from a live owner. */
  readonly releasable: boolean;
}

/** What the rules look at besides the allocation itself. */
export interface ClassifyContext {
  /** Names of the Calico nodes in the datastore. */
  readonly nodes: ReadonlySet<string>;
  /** Pods by `namespace/name`; undefined when no pod list was given. */
  readonly pods: ReadonlyMap<string, PodInfo> | undefined;
  /** Undefined when no service list was given. */
  readonly services: readonly ServiceInfo[] | undefined;
  /** IPs allocated in more than one block, or claimed by more than one live owner. */
  readonly duplicateIPs: ReadonlySet<string>;
}

const TUNNEL_TYPES = new Set(Object.values(TUNNEL_ATTRIBUTE_TYPES));

const keep = (classification: Classification, reason: string): Verdict => ({ classification, reason, releasable: false });
const release = (classification: Classification, reason: string): Verdict => ({ classification, reason, releasable: true });

function tunnelNode(record: AllocationRecord): string | undefined {
  const parsed = record.handle === undefined ? undefined : parseTunnelHandleId(record.handle);
  if (parsed !== undefined) return parsed.node;
  const type = record.attrs['type'];
  if (type !== undefined && TUNNEL_TYPES.has(type)) return record.attrs['node'] ?? record.node;
  return undefined;
}

function isLoadBalancer(record: AllocationRecord): boolean {
  if (record.handle !== undefined && isLoadBalancerHandleId(record.handle)) return true;
  return record.attrs['type'] === 'LoadBalancer' || record.attrs['service'] !== undefined;
}

function classifyTunnel(node: string, ctx: ClassifyContext): Verdict {
  // IPv6 tunnel addresses are judged like IPv4 ones; calicoctl reports them as leaks (design/calico-callers.md#check-quirks).
  if (ctx.nodes.has(node)) return keep('tunnel', `tunnel address of live node ${node}`);
  return release('leak', `tunnel address of node ${node}, which no longer exists`);
}

function classifyLoadBalancer(record: AllocationRecord, ctx: ClassifyContext): Verdict {
  const namespace = record.attrs['namespace'] ?? '';
  const name = record.attrs['service'] ?? '';
  const label = name === '' ? 'a LoadBalancer Service' : `Service ${namespace}/${name}`;
  if (ctx.services === undefined) return keep('unverified', `LoadBalancer address of ${label}; no service list was given`);
  if (ctx.services.some((s) => s.ingressIPs?.includes(record.ip) === true)) {
    return keep('load-balancer', `LoadBalancer address of live ${label}`);
  }
  if (name !== '' && ctx.services.some((s) => s.namespace === namespace && s.name === name)) {
    return keep('load-balancer', `assigned to live ${label}, not yet in its status`);
  }
  return release('leak', `LoadBalancer address of ${label}, which no longer exists`);
}

function classifyWorkload(record: AllocationRecord, ctx: ClassifyContext): Verdict {
  const namespace = record.attrs['namespace'] ?? '';
  const podName = record.attrs['pod'] ?? '';
  if (record.attrs['vmi-name'] !== undefined) return keep('unverified', 'KubeVirt VM address; VM state is not checked');
  if (namespace === '' || podName === '') return keep('unverified', 'allocation carries no pod or namespace attribute');
  if (ctx.pods === undefined) return keep('unverified', `address of pod ${namespace}/${podName}; no pod list was given`);
  const pod = ctx.pods.get(`${namespace}/${podName}`);
  if (pod === undefined) return release('leak', `pod ${namespace}/${podName} no longer exists`);
  if (isFinishedPod(pod)) return release('completed-pod', `pod ${namespace}/${podName} has completed (${pod.phase ?? ''})`);
  const nodeAttr = record.attrs['node'] ?? '';
  if (pod.nodeName !== undefined && pod.nodeName !== '' && nodeAttr !== '' && pod.nodeName !== nodeAttr) {
    return release('leak', `pod ${namespace}/${podName} now runs on ${pod.nodeName}, not ${nodeAttr}`);
  }
  const ips = pod.ips ?? [];
  if (ips.length === 0) return keep('workload', `pod ${namespace}/${podName} has not reported its IPs yet`);
  if (ips.includes(record.ip)) return keep('workload', `in use by live pod ${namespace}/${podName}`);
  return release('leak', `pod ${namespace}/${podName} exists but does not use this address`);
}

/** Decides one allocation; rules are tried top-down and the first that applies wins. */
export function classifyAllocation(record: AllocationRecord, ctx: ClassifyContext): Verdict {
  // Windows-reserved ordinals are never released, whatever a report says (calicoctl marks them releasable).
  if (record.handle?.toLowerCase() === WINDOWS_RESERVED_HANDLE) return keep('windows-reserved', 'reserved for Windows by the host');
  if (record.coolingDown) return keep('cooldown', 'released and in IPAM cooldown; freed automatically when it ends');
  if (ctx.duplicateIPs.has(record.ip)) return keep('duplicate', 'address is allocated or used more than once; resolve by hand');
  const node = tunnelNode(record);
  if (node !== undefined) return classifyTunnel(node, ctx);
  if (isLoadBalancer(record)) return classifyLoadBalancer(record, ctx);
  if (record.attrs['pod'] !== undefined || record.attrs['vmi-name'] !== undefined) return classifyWorkload(record, ctx);
  return keep('unverified', 'allocation carries no owner metadata (manual or host-local allocation)');
}

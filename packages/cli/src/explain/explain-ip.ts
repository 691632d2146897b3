import { createIpamClient, ordinalOf, type AssignmentAttributes } from '@ipamkit/ipam-core';
import {
  isLoadBalancerHandleId,
  isoUtc,
  orUndefined,
  parseTunnelHandleId,
  selectsNamespace,
  selectsNode,
  TUNNEL_ATTRIBUTE_TYPES,
  type AllocationBlock,
  type DefaultedIPPool,
  type IntendedUse,
  type IPAMConfig,
  type Namespace,
  type Node,
  type Versioned,
} from '@ipamkit/models';
import { parseIPArgument } from '../address-order.js';
import type { PodInfo } from '../check/cluster-state.js';
import type { CommandContext } from '../cli-io.js';
import { lookupAddress } from '../release/allocation-lookup.js';
import { defaulted, describePool, poolOf } from './pool-facts.js';

export interface IPExplanation {
  readonly ip: string;
  readonly state: 'no-block' | 'free' | 'cooldown' | 'allocated';
  readonly pool?: string;
  readonly block?: string;
  readonly blockAffinity?: string;
  readonly handle?: string;
  readonly sequenceNumber?: bigint;
  readonly activeOwnerAttrs: Record<string, string>;
  readonly alternateOwnerAttrs: Record<string, string>;
  /** One line per fact that explains where the address came from and why. */
  readonly reasons: string[];
}

/** What explaining an address reads once (shared by `--pod`, which explains several). */
export interface ExplainWorld {
  readonly blocks: Versioned<AllocationBlock>[];
  readonly pools: DefaultedIPPool[];
  readonly config: IPAMConfig;
  readonly pods: ReadonlyMap<string, PodInfo> | undefined;
}

export const IP_ADDRS_ANNOTATION = 'cni.projectcalico.org/ipAddrs';
const POOL_ANNOTATIONS = { 4: 'cni.projectcalico.org/ipv4pools', 6: 'cni.projectcalico.org/ipv6pools' } as const;

export async function loadExplainWorld(ctx: CommandContext, pods: readonly PodInfo[] | undefined): Promise<ExplainWorld> {
  const client = createIpamClient({ datastore: ctx.datastore, clock: ctx.clock });
  const [blocks, pools, config] = await Promise.all([ctx.datastore.blocks.list(), ctx.datastore.ipPools.list(), client.getIPAMConfig()]);
  return {
    blocks: blocks.filter((b) => !b.deleted),
    pools: defaulted(pools),
    config,
    pods: pods === undefined ? undefined : new Map(pods.map((p) => [`${p.namespace}/${p.name}`, p])),
  };
}

function intendedUseOf(handle: string | undefined, attrs: Readonly<Record<string, string>>): IntendedUse {
  if (handle !== undefined && parseTunnelHandleId(handle) !== undefined) return 'Tunnel';
  if (Object.values(TUNNEL_ATTRIBUTE_TYPES).includes(attrs['type'] ?? '')) return 'Tunnel';
  if ((handle !== undefined && isLoadBalancerHandleId(handle)) || attrs['type'] === 'LoadBalancer') return 'LoadBalancer';
  return 'Workload';
}

function parseJsonList(text: string | undefined): string[] {
  if (text === undefined) return [];
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

/** Why the allocation came from this pool: annotations first, then the pool's own selection rules. */
async function selectionReasons(
  ctx: CommandContext,
  world: ExplainWorld,
  ip: string,
  pool: DefaultedIPPool,
  attrs: Readonly<Record<string, string>>,
): Promise<string[]> {
  const reasons: string[] = [];
  const nodeName = attrs['node'];
  const namespaceName = attrs['namespace'];
  const pod = attrs['pod'] === undefined || namespaceName === undefined ? undefined : world.pods?.get(`${namespaceName}/${attrs['pod']}`);
  let pinned = false;
  if (pod !== undefined) {
    if (parseJsonList(pod.annotations?.[IP_ADDRS_ANNOTATION]).some((a) => a.trim() === ip)) {
      reasons.push(`pinned: pod ${pod.namespace}/${pod.name} asks for this exact address in its ${IP_ADDRS_ANNOTATION} annotation`);
      pinned = true;
    }
    const family = ip.includes(':') ? 6 : 4;
    const wanted = parseJsonList(pod.annotations?.[POOL_ANNOTATIONS[family]]);
    if (wanted.includes(pool.name) || wanted.includes(pool.cidr)) {
      reasons.push(`pool chosen by pod ${pod.namespace}/${pod.name}'s ${POOL_ANNOTATIONS[family]} annotation`);
      pinned = true;
    }
  }
  if (nodeName !== undefined) {
    const node: Node | undefined = await orUndefined(ctx.datastore.nodes.get(nodeName));
    if (node === undefined) reasons.push(`node ${nodeName} no longer exists, so its selector match cannot be checked`);
    else {
      const selected = selectsNode(pool, node.labels);
      reasons.push(`pool nodeSelector ${JSON.stringify(pool.nodeSelector)} ${selected ? 'selects' : 'does not select'} node ${nodeName}`);
      if (!selected && !pinned) reasons.push('the pool would not be picked automatically for this node: the address was requested explicitly (an annotation, a CNI pool list, or AssignIP)');
    }
  }
  if (namespaceName !== undefined && pool.namespaceSelector !== undefined && pool.namespaceSelector !== '') {
    const namespace: Namespace | undefined = await orUndefined(ctx.datastore.namespaces.get(namespaceName));
    const selected = selectsNamespace(pool, namespace?.labels);
    reasons.push(`pool namespaceSelector ${JSON.stringify(pool.namespaceSelector)} ${selected ? 'selects' : 'does not select'} namespace ${namespaceName}`);
  }
  if (pool.assignmentMode === 'Manual' && !pinned) reasons.push('pool assignmentMode is Manual: only explicit requests allocate from it');
  return reasons;
}

function affinityReasons(block: AllocationBlock, attrs: Readonly<Record<string, string>>, config: IPAMConfig): string[] {
  const owner = block.affinity;
  const node = attrs['node'];
  if (owner === undefined) return [`block ${block.cidr} has no affinity (its owner released it while it still held addresses)`];
  if (owner.type === 'virtual') return [`block ${block.cidr} belongs to the virtual owner ${owner.host}`];
  if (node === undefined || node === '') return [`block ${block.cidr} is affine to ${owner.host}; the allocation names no node`];
  if (node === owner.host) return [`affine: block ${block.cidr} is affine to node ${node}, which holds the address`];
  return [
    `borrowed: node ${node} took this address from block ${block.cidr}, affine to ${owner.host}` +
      (config.strictAffinity ? ' (strict affinity is now on, so this would no longer happen)' : ' (strict affinity is off, so borrowing is allowed)'),
  ];
}

function cooldownReason(block: AllocationBlock, ip: string, config: IPAMConfig): string {
  const index = block.allocations[ordinalOf(block, ip)];
  const releasedAt = index === null || index === undefined ? undefined : block.attributes[index]?.releasedAt;
  if (releasedAt === undefined) return 'in cooldown';
  const freeAt = isoUtc(new Date(Date.parse(releasedAt) + config.ipCooldownSeconds * 1000));
  return `released at ${releasedAt}; in cooldown (${config.ipCooldownSeconds}s) until ${freeAt}, then the next write to the block frees it`;
}

/** Explains one address against an already loaded world. */
export async function explainAddress(ctx: CommandContext, world: ExplainWorld, ip: string): Promise<IPExplanation> {
  const pool = poolOf(world.pools, ip);
  const lookup = lookupAddress(world.blocks, ip);
  const reasons = [pool === undefined ? 'not inside any IP pool' : `pool ${describePool(pool)}`];
  const empty = { activeOwnerAttrs: {}, alternateOwnerAttrs: {} };
  const base = { ip, ...(pool === undefined ? {} : { pool: pool.name }) };
  if (lookup.state === 'no-block') return { ...base, state: 'no-block', ...empty, reasons: [...reasons, 'no block holds this address: it is not allocated'] };
  const block = world.blocks.find((b) => b.cidr === lookup.block);
  if (block === undefined) return { ...base, state: 'no-block', ...empty, reasons };
  const blockFacts = {
    block: block.cidr,
    ...(block.affinity === undefined ? {} : { blockAffinity: `${block.affinity.type}:${block.affinity.host}` }),
    sequenceNumber: lookup.sequenceNumber,
  };
  if (lookup.state === 'free') return { ...base, ...blockFacts, state: 'free', ...empty, reasons: [...reasons, `free in block ${block.cidr}`] };
  if (lookup.state === 'cooldown') {
    return { ...base, ...blockFacts, state: 'cooldown', ...empty, reasons: [...reasons, cooldownReason(block, ip, world.config)] };
  }
  const client = createIpamClient({ datastore: ctx.datastore, clock: ctx.clock });
  const attrs: AssignmentAttributes = await client.getAssignmentAttributes(ip);
  const use = intendedUseOf(attrs.handleId, attrs.activeOwnerAttrs);
  if (pool !== undefined) {
    reasons.push(
      pool.allowedUses.includes(use)
        ? `intended use ${use} is allowed by the pool`
        : `intended use ${use} is NOT allowed by the pool now (allowedUses changed after allocation?)`,
    );
    reasons.push(...(await selectionReasons(ctx, world, ip, pool, attrs.activeOwnerAttrs)));
  }
  reasons.push(...affinityReasons(block, attrs.activeOwnerAttrs, world.config));
  return {
    ...base,
    ...blockFacts,
    state: 'allocated',
    ...(attrs.handleId === undefined ? {} : { handle: attrs.handleId }),
    activeOwnerAttrs: attrs.activeOwnerAttrs,
    alternateOwnerAttrs: attrs.alternateOwnerAttrs,
    reasons,
  };
}

/** `ipam explain --ip`. */
export async function explainIP(ctx: CommandContext, rawIP: string, pods?: readonly PodInfo[]): Promise<IPExplanation> {
  const ip = parseIPArgument(rawIP);
  return explainAddress(ctx, await loadExplainWorld(ctx, pods), ip);
}

import {
  type AllocationBlock,
  type BlockAffinity,
  type BlockOwner,
  cidrContains,
  type DefaultedIPPool,
  type IntendedUse,
  type IPAMConfig,
  type IPAMHandle,
  type IPVersion,
  type Namespace,
  type Node,
  NoQualifiedPoolError,
  selectsNode,
  ValidationError,
  type Versioned,
} from '@ipamkit/models';
import type { HostReservedAttr } from '../block/host-reserved-attr.js';
import { createReservationFilter, type ReservationFilter } from '../reservations/reservation-filter.js';
import { type ClientDeps, hintKey, orUndefined, type Reader } from './client-deps.js';
import { readIpamConfig } from './ipam-config-ops.js';
import { defaultedPools, determinePools, filterPoolsByUse, maxPrefixLength, poolContaining } from './pool-qualification.js';

/** The virtual owner of LoadBalancer blocks (design/calico-ipam.md#constants). */
export const LOAD_BALANCER_HOST = 'load-balancer';

export interface AssignRequest {
  readonly version: IPVersion;
  readonly owner: BlockOwner;
  readonly use: IntendedUse;
  readonly requestedPools: readonly string[];
  readonly namespace: Namespace | undefined;
  readonly hostReserved: HostReservedAttr | undefined;
  readonly handleId: string | undefined;
}

/** Everything AutoAssign reads before touching a block (design/calico-ipam.md#autoassign steps 3–5), in one wave. */
export interface AssignContext {
  readonly config: IPAMConfig;
  readonly reservations: ReservationFilter;
  readonly node: Node;
  readonly enabled: DefaultedIPPool[];
  readonly selecting: DefaultedIPPool[];
  readonly allowed: DefaultedIPPool[];
  /** Affinities of this owner and family whose block lies in an allowed pool, in datastore order. */
  readonly kept: Versioned<BlockAffinity>[];
  /** Affine blocks in pools that no longer select the node (design/calico-ipam.md#autoassign step 5): release if empty. */
  readonly releaseCandidates: string[];
  readonly handle: Versioned<IPAMHandle> | undefined;
  /** Blocks read in the same wave (hinted); `undefined` = read and not found. */
  readonly prefetched: Map<string, Versioned<AllocationBlock> | undefined>;
}

/**
 * Reads config, reservations, node, pools, the owner's affinities, the handle and the hinted
 * blocks concurrently (one round trip), then qualifies pools. Every call is started in the same
 * tick so a counting wrapper sees one wave.
 */
export async function readAssignContext(deps: ClientDeps, reader: Reader, req: AssignRequest): Promise<AssignContext> {
  const maxPrefixLen = maxPrefixLength(req.version, req.hostReserved);
  const hinted = deps.affineHints.get(hintKey(req.owner.type, req.owner.host, req.version)) ?? [];
  const isLoadBalancer = req.use === 'LoadBalancer';
  const [config, reservationList, node, pools, affinities, handle, hintedBlocks] = await Promise.all([
    readIpamConfig(reader, deps.windowsHost),
    reader.ipReservations.list(),
    isLoadBalancer ? Promise.resolve<Node>({ name: LOAD_BALANCER_HOST }) : reader.nodes.get(req.owner.host),
    reader.ipPools.list(),
    reader.affinities.list({ host: req.owner.host, type: req.owner.type, ipVersion: req.version }),
    req.handleId === undefined ? Promise.resolve(undefined) : orUndefined(reader.handles.get(req.handleId)),
    Promise.all(hinted.map((cidr) => orUndefined(reader.blocks.get(cidr)))),
  ]);
  const all = defaultedPools(pools);
  const { selecting, enabled } = determinePools({
    all,
    version: req.version,
    requested: req.requestedPools,
    node,
    namespace: req.namespace,
    maxPrefixLen,
  });
  if (selecting.length === 0) throw new ValidationError(`no configured Calico pools for node ${req.owner.host}`);
  const allowed = filterPoolsByUse(selecting, req.use);
  if (allowed.length === 0) {
    throw new NoQualifiedPoolError(`cannot find a qualified ippool, no pools match the required use (${req.use})`);
  }
  const kept: Versioned<BlockAffinity>[] = [];
  const releaseCandidates: string[] = [];
  for (const affinity of affinities) {
    if (poolContaining(allowed, affinity.cidr) !== undefined) {
      kept.push(affinity);
      continue;
    }
    if (selecting.some((p) => cidrContains(p.cidr, affinity.cidr))) continue;
    const pool = poolContaining(enabled, affinity.cidr);
    if (pool === undefined || selectsNode(pool, node.labels)) continue;
    releaseCandidates.push(affinity.cidr);
  }
  const prefetched = new Map<string, Versioned<AllocationBlock> | undefined>();
  hinted.forEach((cidr, i) => prefetched.set(cidr, hintedBlocks[i]));
  return {
    config,
    reservations: createReservationFilter(reservationList),
    node,
    enabled,
    selecting,
    allowed,
    kept,
    releaseCandidates,
    handle,
    prefetched,
  };
}

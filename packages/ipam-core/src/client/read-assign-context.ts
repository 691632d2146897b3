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
  type TxStamps,
  NoQualifiedPoolError,
  selectsNode,
  ValidationError,
  type Versioned,
} from '@ipamkit/models';
import type { HostReservedAttr } from '../block/host-reserved-attr.js';
import { createReservationFilter, type ReservationFilter } from '../reservations/reservation-filter.js';
import { throughSlot } from './assign-context-cache.js';
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

/** The reads of the context that a transaction can stamp, as the caller gets them. */
export interface StampableReads {
  readonly config: IPAMConfig;
  readonly reservations: ReservationFilter;
  readonly node: Node;
  readonly all: readonly DefaultedIPPool[];
  readonly affinities: readonly Versioned<BlockAffinity>[];
}

/**
 * Config, reservations, node, pools and the owner's affinities: read whole, or, inside a
 * transaction of a caching client, taken from the cache when their stamps say nothing changed
 * (design/ipam-core.md, "The cached assignment context"). Every read or stamp starts in this tick.
 */
function stampableReads(deps: ClientDeps, reader: Reader, req: AssignRequest, stamps: TxStamps | undefined): Promise<StampableReads> {
  const isLoadBalancer = req.use === 'LoadBalancer';
  const readConfig = (): Promise<IPAMConfig> => readIpamConfig(reader, deps.windowsHost);
  const readReservations = async (): Promise<ReservationFilter> => createReservationFilter(await reader.ipReservations.list());
  const readNode = (): Promise<Node> => reader.nodes.get(req.owner.host);
  const readPools = async (): Promise<readonly DefaultedIPPool[]> => defaultedPools(await reader.ipPools.list());
  const affinityTarget = { kind: 'affinities', host: req.owner.host, type: req.owner.type, ipVersion: req.version } as const;
  const readAffinities = (): Promise<Versioned<BlockAffinity>[]> => reader.affinities.list({ host: req.owner.host, type: req.owner.type, ipVersion: req.version });
  const cache = deps.contextCache;
  const loadBalancerNode = (): Promise<Node> => Promise.resolve({ name: LOAD_BALANCER_HOST });
  if (cache === undefined || stamps === undefined) {
    return Promise.all([readConfig(), readReservations(), isLoadBalancer ? loadBalancerNode() : readNode(), readPools(), readAffinities()]).then(
      ([config, reservations, node, all, affinities]) => ({ config, reservations, node, all, affinities }),
    );
  }
  return Promise.all([
    throughSlot(cache.configSlot(), stamps, readConfig),
    throughSlot(cache.reservationsSlot(), stamps, readReservations),
    isLoadBalancer ? loadBalancerNode() : throughSlot(cache.nodeSlot(req.owner.host), stamps, readNode),
    throughSlot(cache.poolsSlot(), stamps, readPools),
    throughSlot(cache.affinitiesSlot(affinityTarget), stamps, readAffinities),
  ]).then(([config, reservations, node, all, affinities]) => ({ config, reservations, node, all, affinities }));
}

/** The first wave of an AutoAssign but the handle: the stampable reads and the hinted blocks. */
export interface FirstWave {
  readonly hinted: readonly string[];
  readonly reads: Promise<StampableReads>;
  readonly blocks: Promise<(Versioned<AllocationBlock> | undefined)[]>;
}

function firstWave(deps: ClientDeps, reader: Reader, req: AssignRequest, stamps: TxStamps | undefined): FirstWave {
  const hinted = deps.affineHints.get(hintKey(req.owner.type, req.owner.host, req.version)) ?? [];
  return {
    hinted,
    reads: stampableReads(deps, reader, req, stamps),
    blocks: Promise.all(hinted.map((cidr) => orUndefined(reader.blocks.get(cidr)))),
  };
}

/** A read-ahead older than this is not used: read again (design/ipam-core.md, "Read-ahead"). */
export const READ_AHEAD_MAX_AGE_MS = 5_000;

const readAheadKey = (req: Pick<AssignRequest, 'owner' | 'version' | 'use'>): string => `${hintKey(req.owner.type, req.owner.host, req.version)}:${req.use}`;

/**
 * Starts the first wave of an AutoAssign of this host before the call, on a datastore without
 * transactions (design/ipam-core.md, "Read-ahead"); a transaction reads its context itself. The
 * next AutoAssign of the same owner, family and use takes it instead of reading, once.
 */
export function startReadAhead(deps: ClientDeps, req: Omit<AssignRequest, 'handleId'>): void {
  if (deps.ds.transact !== undefined) return;
  const wave = firstWave(deps, deps.ds, { ...req, handleId: undefined }, undefined);
  // Nobody may ever take it: its failure is the taker's to report, not an unhandled rejection.
  wave.reads.catch(() => undefined);
  wave.blocks.catch(() => undefined);
  deps.readAhead.set(readAheadKey(req), { wave, startedAt: deps.clock.now().getTime() });
}

function takeReadAhead(deps: ClientDeps, req: AssignRequest): FirstWave | undefined {
  const key = readAheadKey(req);
  const ahead = deps.readAhead.get(key);
  if (ahead === undefined) return undefined;
  deps.readAhead.delete(key);
  return deps.clock.now().getTime() - ahead.startedAt <= READ_AHEAD_MAX_AGE_MS ? ahead.wave : undefined;
}

/**
 * Reads config, reservations, node, pools, the owner's affinities, the handle and the hinted
 * blocks concurrently (one round trip), then qualifies pools. Every call is started in the same
 * tick so a counting wrapper sees one wave. With `stamps` (a transaction) and a caching client, the
 * first five come from the client's cache while their stamps are unchanged.
 */
export async function readAssignContext(deps: ClientDeps, reader: Reader, req: AssignRequest, stamps?: TxStamps): Promise<AssignContext> {
  const wave = (reader === deps.ds ? takeReadAhead(deps, req) : undefined) ?? firstWave(deps, reader, req, stamps);
  const [{ config, reservations, node, all, affinities }, handle, hintedBlocks] = await Promise.all([
    wave.reads,
    req.handleId === undefined ? Promise.resolve(undefined) : orUndefined(reader.handles.get(req.handleId)),
    wave.blocks,
  ]);
  const { hinted } = wave;
  const { selecting, enabled } = determinePools({
    all,
    version: req.version,
    requested: req.requestedPools,
    node,
    namespace: req.namespace,
    maxPrefixLen: maxPrefixLength(req.version, req.hostReserved),
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
    reservations,
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

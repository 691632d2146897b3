import type {
  AffinityType,
  AllocationAttribute,
  AllocationBlock,
  Clock,
  Datastore,
  IntendedUse,
  IPAMConfig,
  IPVersion,
  Namespace,
} from '@ipamkit/models';
import type { HostReservedAttr } from '../block/host-reserved-attr.js';
import type { OwnerAttributePreconditions, OwnerAttributeUpdates } from '../block/set-owner-attributes-in-block.js';
import type { BlockUtilization, PoolUtilization } from '../utilization/compute-utilization.js';

/** Injected time source (models' `Clock`); tests pass a fake to drive cooldowns and reclaim ages. */
export type { Clock } from '@ipamkit/models';

export interface AutoAssignArgs {
  num4?: number;
  num6?: number;
  handleId?: string;
  attrs?: Record<string, string>;
  /** Empty: the lower-cased OS host name, as Calico does. */
  hostname: string;
  ipv4Pools?: string[];
  ipv6Pools?: string[];
  maxBlocksPerHost?: number;
  hostReservedAttrIPv4s?: HostReservedAttr;
  hostReservedAttrIPv6s?: HostReservedAttr;
  intendedUse: IntendedUse;
  maxAllocToHandlePerIPVersion?: number;
  namespace?: Namespace;
}

/** What `readAhead` needs of the AutoAssign it reads for: whose, which families, what for. */
export type ReadAheadArgs = Pick<AutoAssignArgs, 'num4' | 'num6' | 'hostname' | 'intendedUse'>;

export interface IPAMAssignments {
  /** Block-masked, e.g. `10.0.0.5/26` (the KubeVirt reuse path reports /32 or /128, as Calico does). */
  ips: string[];
  /**
   * `sequenceNumbers[i]` is the sequence number `ips[i]` was allocated under: pass it to
   * releaseIPs to give the address back only if it was not released and re-allocated since.
   */
  sequenceNumbers: bigint[];
  ipVersion: IPVersion;
  numRequested: number;
  /** De-duplicated reasons for a short result. */
  msgs: string[];
  hostReservedAttr?: HostReservedAttr;
}

export interface AssignIPArgs {
  ip: string;
  handleId?: string;
  attrs?: Record<string, string>;
  hostname: string;
  hostReservedAttr?: HostReservedAttr;
  /** Optional here; when set it must be allowed by the pool. */
  intendedUse?: IntendedUse;
  maxAllocToHandlePerIPVersion?: number;
}

export interface AssignIPResult {
  sequenceNumber: bigint;
}

export interface ReleaseOptions {
  address: string;
  handle?: string;
  sequenceNumber?: bigint;
}

export interface AffinityConfig {
  affinityType: AffinityType;
  host: string;
}

export interface BlockArgs {
  hostname: string;
  ipv4Pools?: string[];
  ipv6Pools?: string[];
  hostReservedAttrIPv4s?: HostReservedAttr;
  hostReservedAttrIPv6s?: HostReservedAttr;
}

/**
 * What GetAssignmentAttributes returns: the public `AllocationAttribute` with both owner maps
 * always present (empty when unset) and never `releasedAt` (cooldown addresses are an error there).
 */
export interface AssignmentAttributes extends AllocationAttribute {
  handleId?: string;
  activeOwnerAttrs: Record<string, string>;
  alternateOwnerAttrs: Record<string, string>;
}

/** Utilization counts come from the pure arithmetic in `src/utilization` (one definition). */
export type { BlockUtilization, PoolUtilization };

/** What a caller of ReleaseByHandle knows beforehand; never a precondition. */
export interface ReleaseByHandleOptions {
  /**
   * The host the handle's addresses were most likely assigned on (a CNI DEL: its own node): the
   * blocks its read hints name are read together with the handle (design/ipam-core.md, "Releasing").
   */
  readonly host?: string;
  /**
   * The handle seldom exists (a CNI DEL's workload ID, kept for allocations of old plugins): where a
   * transaction takes the write lock at its start (SQLite), it is looked up alone first, so a missing
   * one costs one read and no write lock (design/ipam-core.md, "Releasing").
   */
  readonly seldomExists?: boolean;
}

export interface IpamClient {
  autoAssign(args: AutoAssignArgs): Promise<{ ipv4?: IPAMAssignments; ipv6?: IPAMAssignments }>;
  /**
   * Starts the reads an AutoAssign of these families makes first (config, reservations, node, pools,
   * the host's affinities, its hinted blocks), for a caller that has other reads to wait for first
   * (the CNI plugin reads the pod). The next AutoAssign of the same host, family and use takes them
   * instead of reading, once, if they are at most a few seconds old. Only on a datastore without
   * transactions; a no-op elsewhere (design/ipam-core.md, "Read-ahead").
   */
  readAhead(args: ReadAheadArgs): void;
  /** Resolves to the sequence number the address is allocated under (for a guarded release). */
  assignIP(args: AssignIPArgs): Promise<AssignIPResult>;
  releaseIPs(opts: ReleaseOptions[]): Promise<{ unallocated: string[]; released: ReleaseOptions[] }>;
  releaseByHandle(handleId: string, options?: ReleaseByHandleOptions): Promise<void>;
  ipsByHandle(handleId: string): Promise<string[]>;
  getAssignmentAttributes(ip: string): Promise<AssignmentAttributes>;
  claimAffinity(cidr: string, affinity: AffinityConfig): Promise<{ claimed: string[]; failed: string[] }>;
  releaseAffinity(cidr: string, host: string, mustBeEmpty: boolean): Promise<void>;
  releaseHostAffinities(affinity: AffinityConfig, mustBeEmpty: boolean): Promise<void>;
  releasePoolAffinities(poolCidr: string): Promise<void>;
  releaseBlockAffinity(block: AllocationBlock, mustBeEmpty: boolean): Promise<void>;
  removeIPAMHost(affinity: AffinityConfig): Promise<void>;
  getIPAMConfig(): Promise<IPAMConfig>;
  setIPAMConfig(cfg: IPAMConfig): Promise<void>;
  getUtilization(args?: { pools?: string[] }): Promise<PoolUtilization[]>;
  ensureBlock(args: BlockArgs): Promise<{ ipv4?: string; ipv6?: string }>;
  upgradeHost(nodeName: string): Promise<void>;
  /**
   * Settles the owner's `pending` affinities left by a claim that never finished (a killed
   * process): confirmed, completed or deleted after their blocks. Only for an owner nobody else
   * claims for meanwhile (design/ipam-core.md, "Pending affinities of a killed claim"). How many.
   */
  resolvePendingAffinities(affinity: AffinityConfig): Promise<number>;
  garbageCollectColdIPs(blockCidr: string): Promise<void>;
  setOwnerAttributes(
    ip: string,
    handleId: string,
    updates: OwnerAttributeUpdates,
    preconditions?: OwnerAttributePreconditions,
  ): Promise<void>;
}

export interface CreateIpamClientOptions {
  datastore: Datastore;
  clock?: Clock;
  /** Treat this process as a Windows host (strict affinity required, design/calico-ipam.md#ipam-configuration). Default: the runtime OS. */
  windowsHost?: boolean;
  /**
   * Keep AutoAssign's assignment context (pools, IPAM config, reservations, nodes, affinities)
   * between calls and re-validate it by version stamps inside each transaction instead of reading
   * it again (design/ipam-core.md, "The cached assignment context"). Default true; backends
   * without transactions always read.
   */
  cacheAssignContext?: boolean;
  /**
   * The read hints to start from, kept current by the client: per owner and family
   * (`"<type>:<host>:v<4|6>"`), the affine block CIDRs the last AutoAssign visited, read in the first
   * wave of the next (design/ipam-core.md, "Counting round trips"). Hints only: every block is
   * checked against the affinities and its own `affinity`. A caller that lives one call (the CNI
   * plugin) may keep them between processes; default: a new map.
   */
  affineHints?: Map<string, string[]>;
}

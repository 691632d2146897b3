import { TUNNEL_ATTRIBUTE_TYPES, WINDOWS_RESERVED_HANDLE, isLoadBalancerHandleId, parseTunnelHandleId } from '@ipamkit/models';
import type { ReleaseOptions } from '@ipamkit/ipam-core';
import { ATTR_NAMESPACE, ATTR_NODE, ATTR_POD, ATTR_SERVICE, ATTR_TYPE, ATTR_VMI_NAME } from '../constants.js';

const TUNNEL_TYPE_VALUES: ReadonlySet<string> = new Set(Object.values(TUNNEL_ATTRIBUTE_TYPES));

/** A tunnel handle (`<type>-tunnel-addr-<node>`) naming `node`; the cheap test first. */
function isTunnelHandleOf(handle: string, node: string): boolean {
  if (node === '' || !handle.includes('-tunnel-addr-')) return false;
  return parseTunnelHandleId(handle)?.node === node;
}

/** The identity of an allocation across block versions: handle and address (design/calico-callers.md#gc-state). */
export function allocationId(handle: string, ip: string): string {
  return `${handle}/${ip}`;
}

/**
 * One tracked allocation: an ordinal of a block that carries a handle. Its leak state (candidate
 * time, confirmed flag) changes only through the three transitions of design/calico-callers.md#leak-classification
 */
export class Allocation {
  readonly id: string;
  /** Kubernetes node resolved for `node` during the last scan; '' = unresolvable. */
  knode = '';
  private leakedAtMs: number | undefined;
  private confirmed = false;
  // Classification is read several times per allocation per scan; computed once per attrs change.
  private ownerAttrs: Readonly<Record<string, string>> = {};
  private tunnel = false;
  private podIP = false;

  constructor(
    readonly ip: string,
    readonly handle: string,
    readonly block: string,
    attrs: Readonly<Record<string, string>>,
    public sequenceNumber: bigint,
    /** `allocationId(handle, ip)`, when the caller has built it already (the ingest does). */
    id: string = allocationId(handle, ip),
  ) {
    this.id = id;
    this.attrs = attrs;
  }

  get attrs(): Readonly<Record<string, string>> {
    return this.ownerAttrs;
  }

  set attrs(attrs: Readonly<Record<string, string>>) {
    this.ownerAttrs = attrs;
    this.podIP = (attrs[ATTR_NAMESPACE] ?? '') !== '' && (attrs[ATTR_POD] ?? '') !== '';
    this.tunnel = TUNNEL_TYPE_VALUES.has(attrs[ATTR_TYPE] ?? '') || isTunnelHandleOf(this.handle, attrs[ATTR_NODE] ?? '');
  }

  /** The `node` attribute: a Calico node name, or '' (LoadBalancer addresses have none). */
  get node(): string {
    return this.attrs[ATTR_NODE] ?? '';
  }

  get leakedAt(): number | undefined {
    return this.leakedAtMs;
  }

  isPodIP(): boolean {
    return this.podIP;
  }

  /** A KubeVirt VM's address: the `vmi-name` key is present, even when empty. */
  isVMAllocation(): boolean {
    return ATTR_VMI_NAME in this.attrs;
  }

  /**
   * A node tunnel address: Calico's `type` attribute, or (for allocations written without it) a
   * tunnel handle naming this allocation's node. Either way it is valid while the node exists.
   */
  isTunnelAddress(): boolean {
    return this.tunnel;
  }

  isWindowsReserved(): boolean {
    return this.handle === WINDOWS_RESERVED_HANDLE;
  }

  /** A LoadBalancer Service address (no node; design/gc.md "Allocations without a node"). */
  isLoadBalancerAddress(): boolean {
    return this.node === '' && isLoadBalancerHandleId(this.handle) && (this.attrs[ATTR_SERVICE] ?? '') !== '';
  }

  isCandidateLeak(): boolean {
    return this.leakedAtMs !== undefined && !this.confirmed;
  }

  isConfirmedLeak(): boolean {
    return this.confirmed;
  }

  /**
   * A candidate from its first sighting; confirmed once strictly more than `graceMs` has passed.
   * A zero grace never confirms (Calico's "GC disabled").
   */
  markLeak(nowMs: number, graceMs: number): void {
    this.leakedAtMs ??= nowMs;
    if (!this.confirmed && graceMs > 0 && nowMs - this.leakedAtMs > graceMs) this.confirmed = true;
  }

  /** Confirmed without a candidate stage (the node is gone). Idempotent. */
  markConfirmedLeak(): void {
    this.confirmed = true;
  }

  markValid(): void {
    this.leakedAtMs = undefined;
    this.confirmed = false;
  }

  /** Always with the sequence number seen, so a re-used address is never freed (rubric 1). */
  releaseOptions(): ReleaseOptions {
    return { address: this.ip, handle: this.handle, sequenceNumber: this.sequenceNumber };
  }
}

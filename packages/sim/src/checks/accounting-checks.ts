import { addressAt, sanitizeHandleId, WINDOWS_RESERVED_HANDLE, type AllocationBlock, type BlockAffinity, type IPAMHandle } from '@ipamkit/models';

/** One allocated ordinal, with the address it stands for. */
export interface AllocatedAddress {
  readonly ip: string;
  readonly block: string;
  readonly ordinal: number;
  readonly handleId: string | undefined;
  readonly attrs: Readonly<Record<string, string>>;
}

/** Every allocated ordinal of every live block (cooling ordinals included: they hold the address). */
export function allocatedAddresses(blocks: readonly AllocationBlock[]): AllocatedAddress[] {
  const out: AllocatedAddress[] = [];
  for (const block of blocks) {
    if (block.deleted) continue;
    block.allocations.forEach((index, ordinal) => {
      if (index === null) return;
      const attr = block.attributes[index];
      out.push({
        ip: addressAt(block.cidr, ordinal),
        block: block.cidr,
        ordinal,
        handleId: attr?.handleId,
        attrs: attr?.activeOwnerAttrs ?? {},
      });
    });
  }
  return out;
}

/** design/calico-callers.md#accounting-checks: no address is allocated twice (in two blocks, so to two handles). */
export function duplicateAddressViolations(addresses: readonly AllocatedAddress[]): string[] {
  const byIP = new Map<string, AllocatedAddress[]>();
  for (const a of addresses) byIP.set(a.ip, [...(byIP.get(a.ip) ?? []), a]);
  const out: string[] = [];
  for (const [ip, holders] of byIP) {
    if (holders.length < 2) continue;
    const who = holders.map((h) => `${h.handleId ?? '(no handle)'} in ${h.block}`).join(', ');
    out.push(`duplicate allocation: ${ip} is held ${holders.length} times (${who})`);
  }
  return out;
}

/**
 * Every handle's per-block count equals the ordinals of that block carrying the handle, and every
 * handle an allocation names exists. Keys are compared sanitized, as the handle store keys them.
 */
export function handleCountViolations(handles: readonly IPAMHandle[], addresses: readonly AllocatedAddress[]): string[] {
  const counted = new Map<string, Map<string, number>>();
  for (const a of addresses) {
    if (a.handleId === undefined || a.handleId.toLowerCase() === WINDOWS_RESERVED_HANDLE) continue;
    const key = sanitizeHandleId(a.handleId);
    const perBlock = counted.get(key) ?? new Map<string, number>();
    perBlock.set(a.block, (perBlock.get(a.block) ?? 0) + 1);
    counted.set(key, perBlock);
  }
  const out: string[] = [];
  const seen = new Set<string>();
  for (const handle of handles) {
    if (handle.deleted) continue;
    const key = sanitizeHandleId(handle.handleId);
    seen.add(key);
    const actual = counted.get(key) ?? new Map<string, number>();
    const blocks = new Set([...Object.keys(handle.block), ...actual.keys()]);
    for (const cidr of blocks) {
      const stored = handle.block[cidr] ?? 0;
      const real = actual.get(cidr) ?? 0;
      if (stored !== real) out.push(`handle ${handle.handleId} counts ${stored} allocation(s) in ${cidr}, the block holds ${real}`);
    }
  }
  for (const [key, perBlock] of counted) {
    if (!seen.has(key)) out.push(`allocation(s) in ${[...perBlock.keys()].join(', ')} name handle ${key}, which does not exist`);
  }
  return out;
}

/** A claim that never finished leaves a `pending` affinity behind (design/calico-ipam.md, claim protocol). */
export function pendingAffinityViolations(affinities: readonly BlockAffinity[]): string[] {
  return affinities
    .filter((a) => !a.deleted && a.state === 'pending')
    .map((a) => `pending affinity left behind: ${a.type}:${a.host} on ${a.cidr}`);
}

/** Allocations still held by handles whose owner is gone (a killed process, a deleted pod). */
export function orphanViolations(addresses: readonly AllocatedAddress[], goneHandles: ReadonlySet<string>, why: string): string[] {
  return addresses
    .filter((a) => a.handleId !== undefined && goneHandles.has(a.handleId))
    .map((a) => `${a.ip} (handle ${a.handleId ?? ''}) is still allocated: ${why}`);
}

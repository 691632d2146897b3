import { cidrContains, sanitizeHandleId, WINDOWS_RESERVED_HANDLE, type AllocationBlock, type BlockAffinity, type IPAMHandle, type Versioned } from '@ipamkit/models';
import { compareAddresses } from '../address-order.js';
import { blockSize } from '@ipamkit/ipam-core';
import { blockProblemOfSize, shortAllocationsProblem } from './validate-block.js';

export type FindingKind =
  | 'invalid-block'
  | 'short-allocations'
  | 'block-without-affinity'
  | 'affinity-without-block'
  | 'leaked-handle'
  | 'handle-drift'
  | 'missing-handle'
  | 'integrity'
  | 'in-use-without-allocation'
  | 'in-use-outside-pools';

/** A problem that is not about one allocation's owner. */
export interface Finding {
  readonly kind: FindingKind;
  readonly subject: string;
  readonly reason: string;
  /** Counted in the problem total; missing handles and pending affinities are informational. */
  readonly problem: boolean;
}

const affinityKey = (host: string, type: string, cidr: string): string => `${type}:${host}:${cidr}`;

/** The keys `findingsOfBlock` looks a block's affinity up in. */
export function affinityKeySet(affinities: readonly BlockAffinity[]): ReadonlySet<string> {
  return new Set(affinities.map((a) => affinityKey(a.host, a.type, a.cidr)));
}

/** One block's own findings: a short allocations array, an invalid block, a missing affinity. */
export function findingsOfBlock(block: AllocationBlock, affinityKeys: ReadonlySet<string>, now: Date): Finding[] {
  const findings: Finding[] = [];
  // A short allocations array is its own finding; the block checks below assume a full one.
  // The CIDR is parsed once per block (design/cli.md, "Reading at scale").
  const size = blockSize(block);
  const short = shortAllocationsProblem(block, size);
  const problem = short === undefined ? blockProblemOfSize(block, now, size) : undefined;
  if (short !== undefined) findings.push({ kind: 'short-allocations', subject: block.cidr, reason: short, problem: true });
  if (problem !== undefined) findings.push({ kind: 'invalid-block', subject: block.cidr, reason: problem, problem: true });
  const owner = block.affinity;
  if (owner !== undefined && !affinityKeys.has(affinityKey(owner.host, owner.type, block.cidr))) {
    findings.push({
      kind: 'block-without-affinity',
      subject: block.cidr,
      reason: `block names ${owner.type}:${owner.host} but no such block affinity exists`,
      problem: true,
    });
  }
  return findings;
}

/** Affinities whose block does not exist (pending ones informational). */
export function affinityWithoutBlockFindings(affinities: readonly BlockAffinity[], blockCidrs: ReadonlySet<string>): Finding[] {
  const findings: Finding[] = [];
  for (const affinity of affinities) {
    if (blockCidrs.has(affinity.cidr)) continue;
    const pending = affinity.state === 'pending';
    findings.push({
      kind: 'affinity-without-block',
      subject: `${affinity.type}:${affinity.host} ${affinity.cidr}`,
      reason: pending ? 'pending affinity whose block is not created yet (a claim in progress, or one that died)' : `${affinity.state === '' ? 'legacy' : affinity.state} affinity for a block that does not exist`,
      problem: !pending,
    });
  }
  return findings;
}

/** Handle objects no block references (leaked), and references to handles that do not exist. */
export function handleFindings(
  handles: readonly Versioned<IPAMHandle>[],
  referenced: ReadonlySet<string>,
): { findings: Finding[]; leaked: Versioned<IPAMHandle>[] } {
  const stored = new Set(handles.map((h) => h.handleId));
  const leaked = handles.filter((h) => !referenced.has(sanitizeHandleId(h.handleId)));
  const findings: Finding[] = leaked.map((h) => ({
    kind: 'leaked-handle',
    subject: h.handleId,
    reason: 'handle object is not referenced by any block allocation',
    problem: true,
  }));
  for (const id of [...referenced].sort()) {
    if (id.toLowerCase() === WINDOWS_RESERVED_HANDLE || stored.has(id)) continue;
    findings.push({ kind: 'missing-handle', subject: id, reason: 'used in a block but no handle object exists', problem: false });
  }
  return { findings, leaked };
}

/**
 * Handles whose stored per-block count differs from the allocations bearing them in the blocks
 * (design/cli.md "Classifying allocations"): a release by handle would free the wrong number.
 * `counted` maps a sanitized handle ID to block CIDR → allocations; leaked handles are left to
 * `handleFindings`.
 */
export function handleDriftFindings(
  handles: readonly Versioned<IPAMHandle>[],
  counted: ReadonlyMap<string, ReadonlyMap<string, number>>,
): Finding[] {
  const findings: Finding[] = [];
  for (const handle of [...handles].sort((a, b) => (a.handleId < b.handleId ? -1 : a.handleId > b.handleId ? 1 : 0))) {
    const actual = counted.get(sanitizeHandleId(handle.handleId));
    if (handle.deleted || actual === undefined) continue;
    const cidrs = [...new Set([...Object.keys(handle.block), ...actual.keys()])].sort();
    const drift = cidrs.filter((cidr) => (handle.block[cidr] ?? 0) !== (actual.get(cidr) ?? 0));
    if (drift.length === 0) continue;
    const detail = drift.map((cidr) => `${handle.block[cidr] ?? 0} in ${cidr} where the block holds ${actual.get(cidr) ?? 0}`).join('; ');
    findings.push({ kind: 'handle-drift', subject: handle.handleId, reason: `handle counts ${detail}`, problem: true });
  }
  return findings;
}

/** IPs that live owners use but IPAM never allocated. */
export function unallocatedInUseFindings(
  owners: ReadonlyMap<string, readonly string[]>,
  allocated: ReadonlySet<string>,
  activePoolCidrs: readonly string[],
): Finding[] {
  const findings: Finding[] = [];
  for (const ip of [...owners.keys()].sort(compareAddresses)) {
    if (allocated.has(ip)) continue;
    const who = (owners.get(ip) ?? []).join(', ');
    if (activePoolCidrs.some((cidr) => cidrContains(cidr, ip))) {
      findings.push({ kind: 'in-use-without-allocation', subject: ip, reason: `in use by ${who} inside an active pool but not allocated in IPAM`, problem: true });
    } else {
      findings.push({ kind: 'in-use-outside-pools', subject: ip, reason: `in use by ${who} and not in any active IP pool`, problem: true });
    }
  }
  return findings;
}

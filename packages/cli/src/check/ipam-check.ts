import { createHash } from 'node:crypto';
import { isoUtc, sanitizeHandleId, WINDOWS_RESERVED_HANDLE, type DatastoreKind, type IPPool } from '@ipamkit/models';
import { compareAddresses, compareCidrs, sortedByCidr } from '../address-order.js';
import type { CommandContext } from '../cli-io.js';
import { allocationRecords, type AllocationRecord } from './allocation-record.js';
import { classifyAllocation, type Verdict } from './classify-allocation.js';
import type { ClusterState, PodInfo } from './cluster-state.js';
import { inUseOwners } from './in-use-owners.js';
import { forEachBlock } from './for-each-block.js';
import {
  affinityKeySet,
  affinityWithoutBlockFindings,
  findingsOfBlock,
  handleDriftFindings,
  handleFindings,
  unallocatedInUseFindings,
  type Finding,
} from './structural-findings.js';

/** One allocation with its verdict, in report form (design/calico-callers.md#report-format plus our verdict). */
export interface CheckedAllocation extends Verdict {
  readonly ip: string;
  readonly block: string;
  readonly handle?: string;
  readonly sequenceNumber: bigint;
  readonly pod?: string;
  readonly namespace?: string;
  readonly node?: string;
  readonly type?: string;
  readonly creationTimestamp?: string;
  readonly inUse: boolean;
  readonly borrowed: boolean;
  readonly coolingDown: boolean;
  readonly owners: string[] | null;
}

export interface LeakedHandle {
  readonly ID: string;
  readonly UID: string | null;
  readonly Revision: string;
}

export interface CheckResult {
  readonly generatedAt: string;
  readonly datastoreKind: DatastoreKind;
  /** Stands in for Calico's cluster GUID: a digest of the pool set (design/cli.md). */
  readonly clusterFingerprint: string;
  readonly counts: {
    readonly blocks: number;
    readonly allocations: number;
    readonly activePools: number;
    readonly nodes: number;
    readonly pods?: number;
    readonly services?: number;
  };
  /** Sorted by address. */
  readonly allocations: CheckedAllocation[];
  readonly leakedHandles: LeakedHandle[];
  readonly findings: Finding[];
  readonly problems: number;
}

const WINDOWS_OWNER = 'Reserved for Windows';

/** A digest of the pools' names and CIDRs: a report is only applied to the pool set it was made on. */
export function clusterFingerprint(pools: readonly IPPool[]): string {
  const lines = pools.map((p) => `${p.name}=${p.cidr}`).sort();
  return createHash('sha256').update(lines.join('\n'), 'utf8').digest('hex').slice(0, 32);
}

function optional<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined || value === '' ? {} : ({ [key]: value } as Record<K, string>);
}

function checkedAllocation(record: AllocationRecord, verdict: Verdict, owners: string[] | undefined): CheckedAllocation {
  const isWindows = verdict.classification === 'windows-reserved';
  const list = isWindows ? [WINDOWS_OWNER] : owners;
  return {
    ip: record.ip,
    block: record.block,
    ...optional('handle', record.handle),
    sequenceNumber: record.sequenceNumber,
    ...optional('pod', record.attrs['pod']),
    ...optional('namespace', record.attrs['namespace']),
    ...optional('node', record.node),
    ...optional('type', record.attrs['type']),
    ...optional('creationTimestamp', record.attrs['timestamp']),
    inUse: list !== undefined && list.length > 0,
    borrowed: record.borrowed,
    coolingDown: record.coolingDown,
    owners: list === undefined || list.length === 0 ? null : [...list],
    ...verdict,
  };
}

/**
 * `ipam check` (design/calico-callers.md#ipam-check): reads everything once, classifies every allocation and reports
 * structural problems. Read-only. `cluster` supplies pods and Services, which the datastore lacks;
 * `integrity` the storage's own check (SQLite's quick_check), reported first.
 */
export async function ipamCheck(ctx: CommandContext, cluster: ClusterState = {}, integrity: readonly Finding[] = []): Promise<CheckResult> {
  const ds = ctx.datastore;
  const [pools, nodes, handles, affinities] = await Promise.all([ds.ipPools.list(), ds.nodes.list(), ds.handles.list(), ds.affinities.list()]);
  // Blocks are read a page at a time and only what the report needs is kept of each (design/cli.md,
  // "Reading at scale"); rows and findings are then put in the order a sorted listing gave them.
  const affinityKeys = affinityKeySet(affinities);
  const now = ctx.clock.now();
  // Only the CIDRs an affinity names are remembered (to find affinities without a block), not all
  // 100,000 of them.
  const affinityCidrs = new Set(affinities.map((a) => a.cidr));
  const affinityBlockCidrs = new Set<string>();
  let blockCount = 0;
  const perBlock: { cidr: string; records: AllocationRecord[]; findings: Finding[] }[] = [];
  await forEachBlock(ds.blocks, (block) => {
    blockCount++;
    if (affinityCidrs.has(block.cidr)) affinityBlockCidrs.add(block.cidr);
    const rows = allocationRecords(block);
    const found = findingsOfBlock(block, affinityKeys, now);
    if (rows.length > 0 || found.length > 0) perBlock.push({ cidr: block.cidr, records: rows, findings: found });
  });
  const blocksInOrder = sortedByCidr(perBlock, (b) => b.cidr);
  const records = blocksInOrder.flatMap((b) => b.records);
  const owners = inUseOwners(nodes, cluster);

  const perIP = new Map<string, number>();
  for (const r of records) perIP.set(r.ip, (perIP.get(r.ip) ?? 0) + 1);
  const duplicateIPs = new Set<string>();
  for (const [ip, n] of perIP) if (n > 1) duplicateIPs.add(ip);
  for (const [ip, list] of owners) if (list.length > 1 && perIP.has(ip)) duplicateIPs.add(ip);

  const pods = cluster.pods === undefined ? undefined : new Map<string, PodInfo>(cluster.pods.map((p) => [`${p.namespace}/${p.name}`, p]));
  const classifyContext = { nodes: new Set(nodes.map((n) => n.name)), pods, services: cluster.services, duplicateIPs };
  const allocations = records
    .map((r) => checkedAllocation(r, classifyAllocation(r, classifyContext), owners.get(r.ip)))
    .sort((a, b) => compareAddresses(a.ip, b.ip) || compareCidrs(a.block, b.block));

  const referenced = new Set<string>();
  const counted = new Map<string, Map<string, number>>();
  for (const r of records) {
    if (r.handle === undefined || r.handle.toLowerCase() === WINDOWS_RESERVED_HANDLE) continue;
    const key = sanitizeHandleId(r.handle);
    referenced.add(key);
    const perBlock = counted.get(key) ?? new Map<string, number>();
    perBlock.set(r.block, (perBlock.get(r.block) ?? 0) + 1);
    counted.set(key, perBlock);
  }
  const handleCheck = handleFindings(handles, referenced);
  const activePools = pools.filter((p) => p.disabled !== true);
  const findings = [
    ...integrity,
    ...blocksInOrder.flatMap((b) => b.findings),
    ...affinityWithoutBlockFindings(affinities, affinityBlockCidrs),
    ...handleCheck.findings,
    ...handleDriftFindings(handles, counted),
    ...unallocatedInUseFindings(owners, new Set(perIP.keys()), activePools.map((p) => p.cidr)),
  ];
  const problemIPs = new Set(allocations.filter((a) => a.releasable || a.classification === 'duplicate').map((a) => a.ip));
  return {
    generatedAt: isoUtc(ctx.clock.now()),
    datastoreKind: ds.kind,
    clusterFingerprint: clusterFingerprint(pools),
    counts: {
      blocks: blockCount,
      allocations: records.length,
      activePools: activePools.length,
      nodes: nodes.length,
      ...(cluster.pods === undefined ? {} : { pods: cluster.pods.length }),
      ...(cluster.services === undefined ? {} : { services: cluster.services.length }),
    },
    allocations,
    leakedHandles: handleCheck.leaked
      .map((h) => ({ ID: h.handleId, UID: h.uid ?? null, Revision: h.revision }))
      .sort((a, b) => (a.ID < b.ID ? -1 : a.ID > b.ID ? 1 : 0)),
    findings,
    problems: problemIPs.size + findings.filter((f) => f.problem).length,
  };
}

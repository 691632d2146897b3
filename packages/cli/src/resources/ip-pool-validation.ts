import {
  applyIPPoolDefaults,
  cidrsOverlap,
  ipPoolProblems,
  parseCidr,
  type Datastore,
  type IPPool,
  type ParsedCidr,
} from '@ipamkit/models';
import type { ErroredField } from './resource-errors.js';

// Calico's IPPool rules with Calico's field names and reasons (design/cli.md "Resource validation").
// The rules themselves come from @ipamkit/models' ipPoolProblems; this module adds what needs the
// other pools or the stored pool (overlap, immutable fields, existing blocks) and names the fields.

const BLOCK_SIZE_RANGE = { 4: [20, 32], 6: [116, 128] } as const;

/** The Calico field a problem from ipPoolProblems is about, by the word it starts with. */
const FIELD_OF_PROBLEM: readonly (readonly [string, string])[] = [
  ['name', 'Metadata.Name'],
  ['cidr', 'IPPool.Spec.CIDR'],
  ['blockSize', 'IPPool.Spec.BlockSize'],
  ['ipipMode', 'IPPool.Spec.IPIPMode'],
  ['vxlanMode', 'IPPool.Spec.VXLANMode'],
  ['assignmentMode', 'IPPool.Spec.AssignmentMode'],
  ['nodeSelector', 'IPPool.Spec.NodeSelector'],
  ['namespaceSelector', 'IPPool.Spec.NamespaceSelector'],
  ['allowedUses', 'IPPool.Spec.AllowedUses'],
  ['LoadBalancer', 'IPPool.Spec.AllowedUses'],
  ['disableBGPExport', 'IPPool.Spec.DisableBGPExport'],
];

function valueOf(pool: IPPool, field: string): string {
  const d = applyIPPoolDefaults(pool);
  switch (field) {
    case 'Metadata.Name':
      return pool.name;
    case 'IPPool.Spec.CIDR':
      return pool.cidr;
    case 'IPPool.Spec.BlockSize':
      return String(d.blockSize);
    case 'IPPool.Spec.IPIPMode':
      return d.ipipMode;
    case 'IPPool.Spec.VXLANMode':
      return d.vxlanMode;
    case 'IPPool.Spec.AssignmentMode':
      return d.assignmentMode;
    case 'IPPool.Spec.NodeSelector':
      return d.nodeSelector;
    case 'IPPool.Spec.NamespaceSelector':
      return d.namespaceSelector ?? '';
    case 'IPPool.Spec.AllowedUses':
      return `[${d.allowedUses.join(' ')}]`;
    case 'IPPool.Spec.DisableBGPExport':
      return String(d.disableBGPExport ?? false);
    default:
      return '';
  }
}

function parsedOrUndefined(cidr: string): ParsedCidr | undefined {
  try {
    return parseCidr(cidr);
  } catch {
    return undefined;
  }
}

/** Calico's own wording for the block size range; models words it differently. */
function blockSizeRangeProblem(pool: IPPool, cidr: ParsedCidr | undefined): ErroredField | undefined {
  if (cidr === undefined) return undefined;
  const size = applyIPPoolDefaults(pool).blockSize;
  const [min, max] = BLOCK_SIZE_RANGE[cidr.version];
  if (Number.isInteger(size) && size >= min && size <= max) return undefined;
  return { name: 'IPPool.Spec.BlockSize', value: String(size), reason: `IPv${cidr.version} block size must be between ${min} and ${max}` };
}

function ruleProblems(pool: IPPool, cidr: ParsedCidr | undefined): ErroredField[] {
  const range = blockSizeRangeProblem(pool, cidr);
  const fields: ErroredField[] = range === undefined ? [] : [range];
  for (const problem of ipPoolProblems(pool)) {
    const field = FIELD_OF_PROBLEM.find(([word]) => problem.startsWith(`${word} `))?.[1] ?? 'IPPool.Spec';
    if (range !== undefined && field === 'IPPool.Spec.BlockSize') continue;
    fields.push({ name: field, value: valueOf(pool, field), reason: problem });
  }
  return fields;
}

function immutableProblems(pool: IPPool, previous: IPPool): ErroredField[] {
  const before = applyIPPoolDefaults(previous);
  const after = applyIPPoolDefaults(pool);
  const fields: ErroredField[] = [];
  const [a, b] = [parsedOrUndefined(before.cidr), parsedOrUndefined(after.cidr)];
  const sameCidr = a !== undefined && b !== undefined ? a.version === b.version && a.network === b.network && a.prefixLength === b.prefixLength : before.cidr === after.cidr;
  if (!sameCidr) fields.push({ name: 'IPPool.Spec.CIDR', value: pool.cidr, reason: 'IPPool CIDR cannot be modified' });
  if (before.blockSize !== after.blockSize) {
    fields.push({ name: 'IPPool.Spec.BlockSize', value: String(after.blockSize), reason: 'IPPool BlockSize cannot be modified' });
  }
  if (before.allowedUses.includes('LoadBalancer') && !after.allowedUses.includes('LoadBalancer')) {
    fields.push({ name: 'IPPool.Spec.AllowedUses', value: valueOf(pool, 'IPPool.Spec.AllowedUses'), reason: 'IPPool AllowedUses cannot be changed from LoadBalancer' });
  }
  return fields;
}

function overlapProblems(pool: IPPool, cidr: ParsedCidr, others: readonly IPPool[]): ErroredField[] {
  return others
    .filter((other) => other.name !== pool.name)
    .filter((other) => {
      const theirs = parsedOrUndefined(other.cidr);
      return theirs !== undefined && cidrsOverlap(cidr, theirs);
    })
    .map((other) => ({ name: 'IPPool.Spec.CIDR', value: pool.cidr, reason: `IPPool(${pool.name}) CIDR overlaps with IPPool(${other.name}) CIDR ${other.cidr}` }));
}

/** A new pool must not cover blocks of another size (they were carved by a pool that is gone). */
async function blockSizeMismatch(pool: IPPool, cidr: ParsedCidr, ds: Datastore): Promise<ErroredField[]> {
  const size = applyIPPoolDefaults(pool).blockSize;
  const blocks = await ds.blocks.list({ ipVersion: cidr.version });
  const clash = blocks.find((b) => cidrsOverlap(cidr, b.cidr) && parseCidr(b.cidr).prefixLength !== size);
  if (clash === undefined) return [];
  return [{ name: 'IPPool.Spec.BlockSize', value: String(size), reason: `IPPool(${pool.name}) block size does not match existing block ${clash.cidr}` }];
}

/** Every field of `pool` Calico would refuse, given the stored pool it replaces and the other pools. */
export async function ipPoolFieldProblems(pool: IPPool, previous: IPPool | undefined, others: readonly IPPool[], ds: Datastore): Promise<ErroredField[]> {
  const cidr = parsedOrUndefined(pool.cidr);
  const fields = ruleProblems(pool, cidr);
  if (previous !== undefined) fields.push(...immutableProblems(pool, previous));
  if (cidr !== undefined) {
    fields.push(...overlapProblems(pool, cidr, others));
    if (previous === undefined && fields.length === 0) fields.push(...(await blockSizeMismatch(pool, cidr, ds)));
  }
  return fields;
}

import {
  applyIPPoolDefaults,
  cidrsOverlap,
  ipPoolProblems,
  parseCidr,
  type Datastore,
  type DefaultedIPPool,
  type IPPool,
  type ParsedCidr,
} from '@ipamkit/models';
import type { ErroredField } from './resource-errors.js';

// Calico's IPPool rules with Calico's field names and reasons (design/cli.md "Resource validation").
// The rules themselves come from @ipamkit/models' ipPoolProblems; this module adds what needs the
// other pools or the stored pool (overlap, immutable fields, existing blocks) and names the fields.

const BLOCK_SIZE_RANGE = { 4: [20, 32], 6: [116, 128] } as const;

/** The Calico field a problem from ipPoolProblems is about (by the word it starts with) and the value Calico reports. */
const FIELD_OF_PROBLEM: readonly (readonly [string, string, (d: DefaultedIPPool) => string])[] = [
  ['name', 'Metadata.Name', (d) => d.name],
  ['cidr', 'IPPool.Spec.CIDR', (d) => d.cidr],
  ['blockSize', 'IPPool.Spec.BlockSize', (d) => String(d.blockSize)],
  ['ipipMode', 'IPPool.Spec.IPIPMode', (d) => d.ipipMode],
  ['vxlanMode', 'IPPool.Spec.VXLANMode', (d) => d.vxlanMode],
  ['assignmentMode', 'IPPool.Spec.AssignmentMode', (d) => d.assignmentMode],
  ['nodeSelector', 'IPPool.Spec.NodeSelector', (d) => d.nodeSelector],
  ['namespaceSelector', 'IPPool.Spec.NamespaceSelector', (d) => d.namespaceSelector ?? ''],
  ['allowedUses', 'IPPool.Spec.AllowedUses', allowedUsesText],
  ['LoadBalancer', 'IPPool.Spec.AllowedUses', allowedUsesText],
  ['disableBGPExport', 'IPPool.Spec.DisableBGPExport', (d) => String(d.disableBGPExport ?? false)],
];

function allowedUsesText(d: DefaultedIPPool): string {
  return `[${d.allowedUses.join(' ')}]`;
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
  const defaulted = applyIPPoolDefaults(pool);
  for (const problem of ipPoolProblems(pool)) {
    const [, field = 'IPPool.Spec', value = () => ''] = FIELD_OF_PROBLEM.find(([word]) => problem.startsWith(`${word} `)) ?? [];
    if (range !== undefined && field === 'IPPool.Spec.BlockSize') continue;
    fields.push({ name: field, value: value(defaulted), reason: problem });
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
    fields.push({ name: 'IPPool.Spec.AllowedUses', value: allowedUsesText(after), reason: 'IPPool AllowedUses cannot be changed from LoadBalancer' });
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

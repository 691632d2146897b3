import {
  bitsOf,
  formatCidr,
  ipVersionOfCidr,
  NotFoundError,
  parseCidr,
  validateIPPool,
  type IPPool,
  type Versioned,
} from '@ipamkit/models';
import type { CommandContext } from '../cli-io.js';
import { CliUsageError } from '../errors.js';

export interface SplitOptions {
  /** NUMBER, as typed. */
  readonly parts: string;
  readonly cidr?: string;
  readonly name?: string;
}

export interface SplitResult {
  readonly pool: string;
  readonly children: { readonly name: string; readonly cidr: string }[];
}

const MAX_NAME_LENGTH = 253;
const KEPT_NAME_LENGTH = 245;

function parseParts(text: string): number {
  const trimmed = text.trim();
  if (!/^[+-]?\d+$/.test(trimmed)) {
    throw new CliUsageError(`error reading number to split IP pools into. ${text} is not a valid number`);
  }
  const n = Number(trimmed);
  if (!Number.isSafeInteger(n) || n < 2 || (n & (n - 1)) !== 0) {
    throw new CliUsageError(`number to split CIDR into is not a valid power of 2: ${text}`);
  }
  return n;
}

/** Consecutive equal subnets from the masked pool address. */
export function splitCidr(cidr: string, parts: number): string[] {
  const parsed = parseCidr(cidr);
  const extra = Math.log2(parts);
  const prefixLength = parsed.prefixLength + extra;
  if (prefixLength > bitsOf(ipVersionOfCidr(cidr))) {
    throw new CliUsageError(`the CIDR ${cidr} is not large enough to be split into ${parts} parts`);
  }
  const step = 1n << BigInt(bitsOf(parsed.version) - prefixLength);
  return Array.from({ length: parts }, (_, i) => formatCidr({ version: parsed.version, network: parsed.network + step * BigInt(i), prefixLength }));
}

/** `--cidr` must be a CIDR before any pool is looked for (else "no pool covers it" would mislead). */
export function checkCidrArgument(text: string | undefined): void {
  if (text === undefined || text === '') return;
  try {
    parseCidr(text);
  } catch (err) {
    throw new CliUsageError(`--cidr ${text} is not a valid CIDR (${err instanceof Error ? err.message : String(err)})`, { cause: err });
  }
}

function childName(poolName: string, i: number): string {
  const name = `split-${poolName}-${i}`;
  return name.length > MAX_NAME_LENGTH ? `split-${poolName.slice(0, KEPT_NAME_LENGTH)}-${i}` : name;
}

async function findPool(ctx: CommandContext, options: SplitOptions): Promise<Versioned<IPPool>> {
  if (options.name !== undefined) {
    try {
      return await ctx.datastore.ipPools.get(options.name);
    } catch (err) {
      if (err instanceof NotFoundError) throw new CliUsageError(`unable to find IP pool with name ${options.name}`, { cause: err });
      throw err;
    }
  }
  const found = (await ctx.datastore.ipPools.list()).filter((p) => p.cidr === options.cidr).at(-1);
  if (found === undefined) throw new CliUsageError(`unable to find IP pool covering the specified CIDR ${options.cidr ?? ''}`);
  return found;
}

/** A child pool: every field of the parent, a new name and CIDR, enabled. */
function childPool(parent: IPPool, name: string, cidr: string): IPPool {
  const { revision: _revision, uid: _uid, deletionTimestamp: _deleting, conditions: _conditions, ...rest } = parent as Versioned<IPPool>;
  return { ...rest, name, cidr, disabled: false };
}

/**
 * `ipam split` (design/calico-callers.md#ipam-split). Unlike calicoctl, every argument, the children's validity and
 * their names are checked before the pool is touched; if creating a child fails, the children
 * made so far are deleted and the pool is re-enabled, so the command leaves no partial state.
 * Blocks and affinities stay where they are: each lies inside exactly one child.
 */
export async function ipamSplit(ctx: CommandContext, options: SplitOptions): Promise<SplitResult> {
  const parts = parseParts(options.parts);
  if ((options.name ?? '') === '' && (options.cidr ?? '') === '') {
    throw new CliUsageError('no name or CIDR provided. Provide a name or CIDR to denote the IP pool to split');
  }
  checkCidrArgument(options.cidr);
  const pool = await findPool(ctx, options);
  const cidrs = splitCidr(pool.cidr, parts);
  const children = cidrs.map((cidr, i) => childPool(pool, childName(pool.name, i), cidr));
  for (const child of children) validateIPPool(child);
  const existing = new Set((await ctx.datastore.ipPools.list()).map((p) => p.name));
  const clash = children.find((c) => existing.has(c.name));
  if (clash !== undefined) throw new CliUsageError(`IP pool ${clash.name} already exists; refusing to split ${pool.name}`);

  // Disable first so nothing allocates from the old pool while the children appear.
  const disabled = await ctx.datastore.ipPools.update({ ...pool, disabled: true });
  const created: string[] = [];
  try {
    for (const child of children) {
      await ctx.datastore.ipPools.create(child);
      created.push(child.name);
    }
  } catch (err) {
    for (const name of created) await ctx.datastore.ipPools.delete(name);
    await ctx.datastore.ipPools.update({ ...disabled, disabled: pool.disabled ?? false });
    throw err;
  }
  // A plain delete: the pool's affinities stay, their blocks now belong to the children.
  await ctx.datastore.ipPools.delete(pool.name, disabled.revision);
  return { pool: pool.name, children: children.map((c) => ({ name: c.name, cidr: c.cidr })) };
}

export function renderSplit(result: SplitResult): string {
  const lines = [`IP Pool ${result.pool} was successfully split into ${result.children.length} smaller pools.`];
  for (const c of result.children) lines.push(`Created ${c.name} with CIDR ${c.cidr}.`);
  lines.push('Please refer to the documentation for final steps.');
  return `${lines.join('\n')}\n`;
}

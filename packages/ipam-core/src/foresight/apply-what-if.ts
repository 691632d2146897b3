import {
  cidrsOverlap,
  definedFields,
  ipVersionOfCidr,
  validateIPAMConfig,
  validateIPPool,
  ValidationError,
  type IPPool,
  type Node,
} from '@ipamkit/models';
import type { ClusterSnapshot } from './cluster-snapshot.js';

/** A proposed change (design/ipam-core.md, "Foresight"); every field is optional. */
export interface WhatIfChange {
  /** New nodes, named `<prefix>-1` … (prefix default `what-if-node`), with these labels. */
  readonly addNodes?: { readonly count: number; readonly labels?: Readonly<Record<string, string>>; readonly namePrefix?: string };
  /** A new block size for the enabled pools of its family (or the named ones); existing blocks stay. */
  readonly blockSize?: { readonly size: number; readonly pools?: readonly string[] };
  readonly strictAffinity?: boolean;
  readonly maxBlocksPerHost?: number;
  readonly disablePools?: readonly string[];
  /** Pools to enable (a disabled pool a migration moves to). */
  readonly enablePools?: readonly string[];
  readonly addPools?: readonly IPPool[];
}

function familyOfBlockSize(size: number): 4 | 6 {
  if (Number.isInteger(size) && size >= 20 && size <= 32) return 4;
  if (Number.isInteger(size) && size >= 116 && size <= 128) return 6;
  throw new ValidationError(`block size ${size} is neither an IPv4 block size (20 to 32) nor an IPv6 one (116 to 128)`);
}

function withBlockSize(pools: readonly IPPool[], change: NonNullable<WhatIfChange['blockSize']>): IPPool[] {
  const version = familyOfBlockSize(change.size);
  const named = change.pools;
  for (const name of named ?? []) {
    if (!pools.some((p) => p.name === name)) throw new ValidationError(`what-if --block-size names pool ${name}, which does not exist`);
  }
  return pools.map((pool) => {
    const applies = named === undefined ? ipVersionOfCidr(pool.cidr) === version && pool.disabled !== true : named.includes(pool.name);
    if (!applies) return pool;
    if (ipVersionOfCidr(pool.cidr) !== version) throw new ValidationError(`block size ${change.size} does not fit IPv${ipVersionOfCidr(pool.cidr)} pool ${pool.name}`);
    const resized = { ...pool, blockSize: change.size };
    validateIPPool(resized);
    return resized;
  });
}

function addedPools(existing: readonly IPPool[], added: readonly IPPool[]): IPPool[] {
  const out = [...existing];
  for (const pool of added) {
    validateIPPool(pool);
    const clash = out.find((p) => p.name === pool.name);
    if (clash !== undefined) throw new ValidationError(`what-if adds pool ${pool.name}, which already exists`);
    const overlap = out.find((p) => cidrsOverlap(p.cidr, pool.cidr));
    if (overlap !== undefined) throw new ValidationError(`what-if pool ${pool.name} (${pool.cidr}) overlaps pool ${overlap.name} (${overlap.cidr})`);
    out.push(pool);
  }
  return out;
}

function addedNodes(existing: readonly Node[], change: NonNullable<WhatIfChange['addNodes']>): Node[] {
  if (!Number.isSafeInteger(change.count) || change.count < 0) throw new ValidationError(`nodes to add must be a non-negative integer, got ${change.count}`);
  const prefix = change.namePrefix ?? 'what-if-node';
  const names = new Set(existing.map((n) => n.name));
  const out = [...existing];
  for (let i = 1; i <= change.count; i += 1) {
    const name = `${prefix}-${i}`;
    if (names.has(name)) throw new ValidationError(`what-if node ${name} already exists; choose another prefix`);
    out.push({ name, ...(change.labels === undefined ? {} : { labels: { ...change.labels } }) });
  }
  return out;
}

/**
 * The snapshot as it would be after `change`, validated by the rules a real change meets (pool
 * rules, no overlap, the IPAM config's cross-field rules). Pure: the input is not touched.
 */
export function applyWhatIf(snapshot: ClusterSnapshot, change: WhatIfChange): ClusterSnapshot {
  let pools: IPPool[] = [...snapshot.pools];
  for (const name of change.disablePools ?? []) {
    if (!pools.some((p) => p.name === name)) throw new ValidationError(`what-if disables pool ${name}, which does not exist`);
    pools = pools.map((p) => (p.name === name ? { ...p, disabled: true } : p));
  }
  for (const name of change.enablePools ?? []) {
    if (!pools.some((p) => p.name === name)) throw new ValidationError(`what-if enables pool ${name}, which does not exist`);
    pools = pools.map((p) => (p.name === name ? { ...p, disabled: false } : p));
  }
  if (change.addPools !== undefined) pools = addedPools(pools, change.addPools);
  if (change.blockSize !== undefined) pools = withBlockSize(pools, change.blockSize);
  const config = { ...snapshot.config, ...definedFields({ strictAffinity: change.strictAffinity, maxBlocksPerHost: change.maxBlocksPerHost }) };
  validateIPAMConfig(config);
  const nodes = change.addNodes === undefined ? [...snapshot.nodes] : addedNodes(snapshot.nodes, change.addNodes);
  return { ...snapshot, pools, config, nodes };
}

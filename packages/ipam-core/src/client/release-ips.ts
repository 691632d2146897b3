import {
  type AllocationBlock,
  blockCidrFor,
  canonicalAddress,
  cidrContains,
  ConflictError,
  type IPAMConfig,
  type IPVersion,
  ipVersionOfAddress,
  ValidationError,
  type Versioned,
} from '@ipamkit/models';
import { isEmpty } from '../block/block-queries.js';
import { releaseInBlock } from '../block/release-in-block.js';
import { persistRelease } from './block-handle-writes.js';
import { type ClientDeps, collectedBlock, orUndefined } from './client-deps.js';
import type { ReleaseOptions } from './client-types.js';
import { ensureConsistentAffinity } from './ensure-consistent-affinity.js';
import { readIpamConfig } from './ipam-config-ops.js';
import { withReleasePartial } from './partial-results.js';
import { defaultedPools, poolContaining } from './pool-qualification.js';
import { withCasRetry } from './with-cas-retry.js';

/** Blocks released concurrently (Calico: one goroutine per CPU). */
const RELEASE_CONCURRENCY = 4;

/** One block's addresses: canonical for the block logic, as given for the result. */
interface Group {
  readonly options: ReleaseOptions[];
  readonly originals: ReleaseOptions[];
}

interface GroupOutcome {
  readonly options: ReleaseOptions[];
  readonly unallocated: string[];
  readonly error?: unknown;
}

/** Release one block's addresses; a stale sequence number or handle fails the whole group (design/calico-ipam.md#releaseips step 6). */
async function releaseGroup(deps: ClientDeps, config: IPAMConfig, cidr: string, group: Group): Promise<GroupOutcome> {
  const { options, originals } = group;
  try {
    const outcome = await withCasRetry(
      async () => {
        const stored = await orUndefined(deps.ds.blocks.get(cidr));
        if (stored === undefined) return { unallocated: options.map((o) => o.address), block: undefined };
        const now = deps.clock.now();
        const { block } = collectedBlock(stored, config, now);
        const result = releaseInBlock(block, { releases: options, cooldownSeconds: config.ipCooldownSeconds, now });
        if (result.released.length === 0) return { unallocated: result.unallocated, block: undefined };
        const deleteBlock = isEmpty(result.block) && result.block.affinity === undefined;
        await persistRelease(deps, { original: stored, next: result.block, deleteBlock, handleDeltas: result.handleDeltas });
        return { unallocated: result.unallocated, block: result.block };
      },
      { isRetryable: (err) => err instanceof ConflictError, operation: `release addresses in ${cidr}` },
    );
    if (outcome.block !== undefined) await ensureConsistentAffinity(deps, config, outcome.block);
    return { options: originals, unallocated: outcome.unallocated };
  } catch (error) {
    return { options: originals, unallocated: [], error };
  }
}

async function inBatches<T, R>(items: readonly T[], limit: number, run: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += limit) out.push(...(await Promise.all(items.slice(i, i + limit).map(run))));
  return out;
}

/**
 * ReleaseIPs (design/calico-ipam.md#releaseips). Already-free addresses are reported in `unallocated`, not as
 * errors. A BadSequenceNumberError / BadHandleError (stop-and-re-evaluate) releases nothing in that
 * block; the first error is thrown after every block was tried, with the partial result attached
 * (partialReleaseResult).
 */
export async function releaseIPs(deps: ClientDeps, opts: ReleaseOptions[]): Promise<{ unallocated: string[]; released: ReleaseOptions[] }> {
  const canonical = opts.map((o) => {
    if (o.address === '') throw new ValidationError('release options must name an address');
    try {
      return canonicalAddress(o.address);
    } catch (err) {
      throw new ValidationError(`invalid IP address ${JSON.stringify(o.address)}`, { cause: err });
    }
  });
  const [pools, config] = await Promise.all([deps.ds.ipPools.list(), readIpamConfig(deps.ds, deps.windowsHost)]);
  const all = defaultedPools(pools);
  const familyBlocks = new Map<IPVersion, Promise<Versioned<AllocationBlock>[]>>();
  const groups = new Map<string, Group>();
  const unallocated: string[] = [];
  for (const [i, option] of opts.entries()) {
    const ip = canonical[i] ?? option.address;
    const pool = poolContaining(all, ip);
    let cidr: string | undefined;
    if (pool !== undefined) {
      cidr = blockCidrFor(ip, pool.blockSize);
    } else {
      // Outside every pool (e.g. the pool was deleted): find the block by listing, once per family.
      const version = ipVersionOfAddress(ip);
      const listing = familyBlocks.get(version) ?? deps.ds.blocks.list({ ipVersion: version });
      familyBlocks.set(version, listing);
      cidr = (await listing).find((b) => cidrContains(b.cidr, ip))?.cidr;
    }
    if (cidr === undefined) {
      unallocated.push(option.address);
      continue;
    }
    const group = groups.get(cidr) ?? { options: [], originals: [] };
    group.options.push({ ...option, address: ip });
    group.originals.push(option);
    groups.set(cidr, group);
  }
  const outcomes = await inBatches([...groups], RELEASE_CONCURRENCY, ([cidr, group]) => releaseGroup(deps, config, cidr, group));
  const released: ReleaseOptions[] = [];
  let firstError: unknown;
  for (const outcome of outcomes) {
    unallocated.push(...outcome.unallocated);
    if (outcome.error === undefined) released.push(...outcome.options);
    else firstError ??= outcome.error;
  }
  if (firstError !== undefined) throw withReleasePartial(firstError, { unallocated, released });
  return { unallocated, released };
}

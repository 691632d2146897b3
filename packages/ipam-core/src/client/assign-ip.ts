import { blockCidrFor, type BlockOwner, canonicalAddress, ConflictError, definedFields, ipVersionOfAddress, ValidationError } from '@ipamkit/models';
import { AddressInUseError } from '../block/block-errors.js';
import { sequenceNumberFor } from '../block/block-queries.js';
import { HandleMaxAllocReachedError } from '../block/handle-counts.js';
import { assignInBlock } from '../block/take-named-address.js';
import { claimAffineBlock, getPendingAffinity } from './affinity-claims.js';
import { decideHostname } from './auto-assign.js';
import { persistAllocation } from './block-handle-writes.js';
import { type ClientDeps, collectedBlock, orUndefined } from './client-deps.js';
import { BlockClaimConflictError } from './client-errors.js';
import type { AssignIPArgs, AssignIPResult } from './client-types.js';
import { handleAllocations } from './handle-queries.js';
import { readIpamConfig } from './ipam-config-ops.js';
import { defaultedPools, enabledPools, poolContaining } from './pool-qualification.js';
import { withCasRetry } from './with-cas-retry.js';

/**
 * AssignIP (design/calico-ipam.md#assignip). Fixes two Calico quirks (design/ipam-core.md): a lost block write
 * never leaves the handle incremented (one transaction, or an undo on every failure), and another
 * host winning the block claim is retried (the address is then borrowed or refused by strict
 * affinity) instead of surfacing as "already claimed".
 */
export async function assignIP(deps: ClientDeps, args: AssignIPArgs): Promise<AssignIPResult> {
  let ip: string;
  try {
    ip = canonicalAddress(args.ip);
  } catch (err) {
    throw new ValidationError(`invalid IP address ${JSON.stringify(args.ip)}`, { cause: err });
  }
  const host = decideHostname(args.hostname);
  const owner: BlockOwner = { type: args.intendedUse === 'LoadBalancer' ? 'virtual' : 'host', host };
  const version = ipVersionOfAddress(ip);
  const [pools, config] = await Promise.all([deps.ds.ipPools.list(), readIpamConfig(deps.ds, deps.windowsHost)]);
  const pool = poolContaining(enabledPools(defaultedPools(pools), version), ip);
  if (pool === undefined) throw new ValidationError('The provided IP address is not in a configured pool\n');
  if (args.intendedUse !== undefined && !pool.allowedUses.includes(args.intendedUse)) {
    throw new ValidationError(
      `IP address ${ip} is in IP pool "${pool.name}", which is not allowed for use "${args.intendedUse}" (allowedUses: ${pool.allowedUses.join(', ')})`,
    );
  }
  const blockCidr = blockCidrFor(ip, pool.blockSize);
  const maxAlloc = args.maxAllocToHandlePerIPVersion ?? 0;
  const ref = args.handleId === undefined ? undefined : { handleId: args.handleId, maxAlloc };
  try {
    return await withCasRetry(
      async (): Promise<AssignIPResult> => {
        let stored = await orUndefined(deps.ds.blocks.get(blockCidr));
        if (stored === undefined) {
          stored = await claimAffineBlock(deps, await getPendingAffinity(deps, owner, blockCidr), args.hostReservedAttr);
        }
        const { block } = collectedBlock(stored, config, deps.clock.now());
        let next;
        try {
          next = assignInBlock(block, {
            ip,
            ...definedFields({ handleId: args.handleId, attrs: args.attrs }),
            ...(config.strictAffinity ? { requiredOwner: owner } : {}),
          });
        } catch (err) {
          // KubeVirt: re-assigning the address a capped handle already holds is success.
          if (err instanceof AddressInUseError && args.handleId !== undefined && maxAlloc > 0 && err.existingHandleId === args.handleId && !err.inCooldown) {
            return { sequenceNumber: sequenceNumberFor(block, ip) ?? block.sequenceNumber };
          }
          throw err;
        }
        await persistAllocation(deps, { original: stored, next: next.block, count: 1 }, ref);
        return { sequenceNumber: block.sequenceNumber };
      },
      {
        isRetryable: (err) => err instanceof ConflictError || err instanceof BlockClaimConflictError,
        operation: `AssignIP ${ip}`,
      },
    );
  } catch (err) {
    if (!(err instanceof HandleMaxAllocReachedError) || args.handleId === undefined) throw err;
    const held = (await handleAllocations(deps, args.handleId)).find((a) => a.ip === ip);
    if (held !== undefined) return { sequenceNumber: held.sequenceNumber };
    throw new ValidationError(
      `handle ${args.handleId} already has IP(s) allocated, cannot assign additional IP ${ip} (maxAllocPerIPVersion=${maxAlloc})`,
      { cause: err },
    );
  }
}

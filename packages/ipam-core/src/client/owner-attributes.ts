import { type AllocationBlock, blockCidrFor, canonicalAddress, ConflictError, NotFoundError, ValidationError } from '@ipamkit/models';
import { OwnerPreconditionError } from '../block/block-errors.js';
import { attributesFor } from '../block/block-queries.js';
import { type OwnerAttributePreconditions, type OwnerAttributeUpdates, setOwnerAttributesInBlock, validateOwnerAttributeUpdates } from '../block/set-owner-attributes-in-block.js';
import { asUpdate, type ClientDeps, collectedBlock } from './client-deps.js';
import type { AssignmentAttributes } from './client-types.js';
import { readIpamConfig } from './ipam-config-ops.js';
import { defaultedPools, enabledPools, poolContaining } from './pool-qualification.js';
import { withCasRetry } from './with-cas-retry.js';

function canonical(ip: string): string {
  try {
    return canonicalAddress(ip);
  } catch (err) {
    throw new ValidationError(`invalid IP address ${JSON.stringify(ip)}`, { cause: err });
  }
}

async function blockCidrOf(deps: ClientDeps, ip: string, notInPool: () => Error): Promise<string> {
  const pool = poolContaining(enabledPools(defaultedPools(await deps.ds.ipPools.list())), ip);
  if (pool === undefined) throw notInPool();
  return blockCidrFor(ip, pool.blockSize);
}

/**
 * GetAssignmentAttributes (design/calico-ipam.md#getassignmentattributes). Throws NotFoundError (no pool, no block,
 * unassigned) or IPInCooldownError.
 */
export async function getAssignmentAttributes(deps: ClientDeps, rawIp: string): Promise<AssignmentAttributes> {
  const ip = canonical(rawIp);
  const [cidr, config] = await Promise.all([
    blockCidrOf(deps, ip, () => new NotFoundError(ip, `No valid IPPool for ${ip}`)),
    readIpamConfig(deps.ds, deps.windowsHost),
  ]);
  const stored = await deps.ds.blocks.get(cidr);
  const attribute = attributesFor(collectedBlock(stored, config, deps.clock.now()).block, ip);
  return {
    ...(attribute.handleId === undefined ? {} : { handleId: attribute.handleId }),
    activeOwnerAttrs: attribute.activeOwnerAttrs ?? {},
    alternateOwnerAttrs: attribute.alternateOwnerAttrs ?? {},
  };
}

/**
 * SetOwnerAttributes (design/calico-ipam.md#setownerattributes) as a CAS loop on the block. A failed precondition throws
 * OwnerPreconditionError, a ConflictError that this loop does not retry (the same preconditions
 * would fail again); only the named address changes, even when its attribute entry was shared
 * (design/ipam-core.md, "Owner attributes").
 */
export async function setOwnerAttributes(
  deps: ClientDeps,
  rawIp: string,
  handleId: string,
  updates: OwnerAttributeUpdates,
  rawPreconditions?: OwnerAttributePreconditions,
): Promise<void> {
  // Go's nil preconditions: plain-JS callers may pass null for "none".
  const givenPreconditions: unknown = rawPreconditions;
  const preconditions = givenPreconditions === null ? undefined : rawPreconditions;
  validateOwnerAttributeUpdates(updates, preconditions);
  const givenHandle: unknown = handleId;
  if (typeof givenHandle !== 'string') throw new ValidationError('handleId must be a string');
  const ip = canonical(rawIp);
  const [cidr, config] = await Promise.all([
    blockCidrOf(deps, ip, () => new ValidationError(`the provided IP address ${ip} is not in a configured pool`)),
    readIpamConfig(deps.ds, deps.windowsHost),
  ]);
  await withCasRetry(
    async () => {
      const stored = await deps.ds.blocks.get(cidr);
      const { block } = collectedBlock(stored, config, deps.clock.now());
      const next: AllocationBlock = setOwnerAttributesInBlock(block, {
        ip,
        handleId,
        updates,
        ...(preconditions === undefined ? {} : { preconditions }),
      }).block;
      await deps.ds.blocks.update(asUpdate(stored, next));
    },
    {
      isRetryable: (err) => err instanceof ConflictError && !(err instanceof OwnerPreconditionError),
      operation: `set owner attributes of ${ip}`,
    },
  );
}

/**
 * GarbageCollectColdIPs (design/calico-ipam.md#garbagecollectcoldips): persist the cooldown GC of one block, which
 * read-only paths compute and discard. A block that changed meanwhile is re-read and collected again.
 */
export async function garbageCollectColdIPs(deps: ClientDeps, blockCidr: string): Promise<void> {
  const config = await readIpamConfig(deps.ds, deps.windowsHost);
  await withCasRetry(
    async () => {
      const stored = await deps.ds.blocks.get(blockCidr);
      const { block, changed } = collectedBlock(stored, config, deps.clock.now());
      if (changed) await deps.ds.blocks.update(asUpdate(stored, block));
    },
    { isRetryable: (err) => err instanceof ConflictError, operation: `collect cold IPs in ${blockCidr}` },
  );
}

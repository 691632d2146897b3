import { ValidationError } from '../errors.js';
import { cidrSize, formatCidr, parseCidr, type ParsedCidr } from './cidr.js';
import { bitsOf } from './ip-version-bits.js';

function checkBlockSize(pool: ParsedCidr, blockSize: number): void {
  if (!Number.isInteger(blockSize) || blockSize < pool.prefixLength || blockSize > bitsOf(pool.version)) {
    throw new ValidationError(
      `block size /${blockSize} does not fit pool ${formatCidr(pool)} (must be ${pool.prefixLength}–${bitsOf(pool.version)})`,
    );
  }
}

/** How many blocks of `blockSize` a pool holds. */
export function blockCountOf(poolCidr: string, blockSize: number): bigint {
  const pool = parseCidr(poolCidr);
  checkBlockSize(pool, blockSize);
  return 1n << BigInt(blockSize - pool.prefixLength);
}

/** The `index`-th block of a pool, counting from the pool's first address. */
export function blockAt(poolCidr: string, blockSize: number, index: number | bigint): string {
  const pool = parseCidr(poolCidr);
  checkBlockSize(pool, blockSize);
  const i = BigInt(index);
  const count = 1n << BigInt(blockSize - pool.prefixLength);
  if (i < 0n || i >= count) throw new ValidationError(`block index ${i} is outside pool ${formatCidr(pool)}`);
  const block: ParsedCidr = { version: pool.version, network: 0n, prefixLength: blockSize };
  return formatCidr({ ...block, network: pool.network + i * cidrSize(block) });
}

/**
 * The blocks of a pool in address order, lazily: an IPv6 /64 pool has 2^58 blocks of /122, so
 * callers take what they need rather than materialising the list.
 */
export function* blocksOf(poolCidr: string, blockSize: number): Generator<string, void, undefined> {
  const pool = parseCidr(poolCidr);
  checkBlockSize(pool, blockSize);
  const step = 1n << BigInt(bitsOf(pool.version) - blockSize);
  const end = pool.network + cidrSize(pool);
  for (let network = pool.network; network < end; network += step) {
    yield formatCidr({ version: pool.version, network, prefixLength: blockSize });
  }
}

import { bitsOf, blockAt, blockCountOf, cidrContains, ipVersionOfCidr, parseCidr } from '@ipamkit/models';

/** The 32-bit FNV offset basis and prime. */
const FNV32_OFFSET_BASIS = 2166136261;
const FNV32_PRIME = 16777619;

/**
 * FNV-1 (not 1a), 32 bits, over the UTF-8 bytes of `text`: the seed Calico derives from the host
 * name (design/calico-ipam.md#block-generators), so each host starts its block search at its own stable place.
 */
export function fnv1Hash32(text: string): number {
  let hash = FNV32_OFFSET_BASIS;
  for (const byte of new TextEncoder().encode(text)) {
    hash = Math.imul(hash, FNV32_PRIME) >>> 0;
    hash = (hash ^ byte) >>> 0;
  }
  return hash;
}

/** SplitMix64: a small, well-mixed PRNG; any seeded PRNG is wire-compatible (design/calico-ipam.md#block-generators). */
function splitMix64(seed: bigint): () => bigint {
  let state = BigInt.asUintN(64, seed);
  return () => {
    state = BigInt.asUintN(64, state + 0x9e3779b97f4a7c15n);
    let z = state;
    z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n);
    z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94d049bb133111ebn);
    return z ^ (z >> 31n);
  };
}

/** Uniform integer in [0, bound) by masked rejection sampling, as big.Int.Rand does. */
function uniformBelow(bound: bigint, next: () => bigint): bigint {
  if (bound <= 1n) return 0n;
  const bits = (bound - 1n).toString(2).length;
  const words = Math.ceil(bits / 64);
  const mask = (1n << BigInt(bits)) - 1n;
  for (;;) {
    let value = 0n;
    for (let i = 0; i < words; i += 1) value = (value << 64n) | next();
    value &= mask;
    if (value < bound) return value;
  }
}

/** The index of the first block the host-seeded search visits in a pool. */
export function blockSearchStart(poolCidr: string, blockPrefixLength: number, host: string, nowNs: () => bigint): bigint {
  const numBlocks = blockCountOf(poolCidr, blockPrefixLength);
  const seed = blockPrefixLength === bitsOf(ipVersionOfCidr(poolCidr)) ? nowNs() : BigInt(fnv1Hash32(host));
  return uniformBelow(numBlocks, splitMix64(seed));
}

/**
 * The given existing block CIDRs of a pool, in the order randomBlockGenerator would visit them:
 * borrowing only needs blocks that exist, so it sorts the one listing instead of probing every
 * CIDR of the pool with a Get (an IPv6 /64 pool has 2^58 candidate blocks).
 */
export function inSearchOrder(poolCidr: string, blockPrefixLength: number, start: bigint, blockCidrs: readonly string[]): string[] {
  const pool = parseCidr(poolCidr);
  const numBlocks = blockCountOf(poolCidr, blockPrefixLength);
  const shift = BigInt(bitsOf(pool.version) - blockPrefixLength);
  const rank = (cidr: string): bigint => {
    const index = (parseCidr(cidr).network - pool.network) >> shift;
    return (index - start + numBlocks) % numBlocks;
  };
  return blockCidrs
    .filter((c) => cidrContains(poolCidr, c))
    .map((c) => ({ c, r: rank(c) }))
    .sort((a, b) => (a.r < b.r ? -1 : a.r > b.r ? 1 : 0))
    .map(({ c }) => c);
}

/**
 * Every block of `poolCidr` once, starting at a host-seeded random index and wrapping around
 * (design/calico-ipam.md#block-generators). Retries for the same host walk the same order; single-address blocks use a
 * time seed, as Calico does.
 */
export function* randomBlockGenerator(poolCidr: string, blockPrefixLength: number, host: string, nowNs: () => bigint): Generator<string> {
  const numBlocks = blockCountOf(poolCidr, blockPrefixLength);
  const start = blockSearchStart(poolCidr, blockPrefixLength, host, nowNs);
  for (let i = 0n; i < numBlocks; i += 1n) {
    yield blockAt(poolCidr, blockPrefixLength, (start + i) % numBlocks);
  }
}


/**
 * A small seedable PRNG (mulberry32) in [0, 1): the same seed repeats the same sequence, so a simulated
 * run or an injected fault replays exactly (design/models.md#clock). Not for anything secret.
 */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

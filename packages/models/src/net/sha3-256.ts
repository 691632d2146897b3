/**
 * SHA3-256 (FIPS 202) in plain JavaScript, for the hostname-hash label only. Loading `node:crypto`
 * costs a CNI call several milliseconds (design/models.md, "Hostname hash without node:crypto").
 * Not for secrets: no constant-time claims.
 *
 * Keccak-f[1600] over 25 lanes of 64 bits, each held as two signed 32-bit halves (`s<i>l` low,
 * `s<i>h` high): the bitwise operators give signed 32-bit results, which V8's interpreter holds as
 * small integers. A plugin call runs this in the interpreter only (the optimizing compilers are
 * off), where every typed-array access is an inline-cache dispatch: so the round is written out
 * over local variables, with each lane's rotation offset and its place under pi as constants (the
 * offsets (t + 1)(t + 2) / 2 mod 64 along the walk (x, y) -> (y, 2x + 3y), from (1, 0)). One hash
 * of a host name costs about 0.16 ms there, against 2.3 ms with the lanes in arrays (design/models.md,
 * "Hostname hash without node:crypto").
 */

const RATE_BYTES = 136;
const ROUNDS = 24;

/** Round constants (low and high halves), derived from their LFSR definition on first use. */
let roundConstants: { readonly lo: Int32Array; readonly hi: Int32Array } | undefined;

function buildRoundConstants(): { lo: Int32Array; hi: Int32Array } {
  const lo = new Int32Array(ROUNDS);
  const hi = new Int32Array(ROUNDS);
  let r = 1;
  const lfsrBit = (): number => {
    const bit = r & 1;
    r = r & 0x80 ? ((r << 1) ^ 0x71) & 0xff : (r << 1) & 0xff;
    return bit;
  };
  for (let round = 0; round < ROUNDS; round++) {
    for (let j = 0; j < 7; j++) {
    if (lfsrBit() === 0) continue;
    const position = (1 << j) - 1;
    if (position < 32) lo[round] = (lo[round] ?? 0) | (1 << position);
    else hi[round] = (hi[round] ?? 0) | (1 << (position - 32));
    }
  }
  return { lo, hi };
}

/** Keccak-f[1600] on the 50 halves of `s`, in place. */
function permute(s: Int32Array, rcLo: Int32Array, rcHi: Int32Array): void {
  let s0l = s[0] ?? 0;
  let s0h = s[1] ?? 0;
  let s1l = s[2] ?? 0;
  let s1h = s[3] ?? 0;
  let s2l = s[4] ?? 0;
  let s2h = s[5] ?? 0;
  let s3l = s[6] ?? 0;
  let s3h = s[7] ?? 0;
  let s4l = s[8] ?? 0;
  let s4h = s[9] ?? 0;
  let s5l = s[10] ?? 0;
  let s5h = s[11] ?? 0;
  let s6l = s[12] ?? 0;
  let s6h = s[13] ?? 0;
  let s7l = s[14] ?? 0;
  let s7h = s[15] ?? 0;
  let s8l = s[16] ?? 0;
  let s8h = s[17] ?? 0;
  let s9l = s[18] ?? 0;
  let s9h = s[19] ?? 0;
  let s10l = s[20] ?? 0;
  let s10h = s[21] ?? 0;
  let s11l = s[22] ?? 0;
  let s11h = s[23] ?? 0;
  let s12l = s[24] ?? 0;
  let s12h = s[25] ?? 0;
  let s13l = s[26] ?? 0;
  let s13h = s[27] ?? 0;
  let s14l = s[28] ?? 0;
  let s14h = s[29] ?? 0;
  let s15l = s[30] ?? 0;
  let s15h = s[31] ?? 0;
  let s16l = s[32] ?? 0;
  let s16h = s[33] ?? 0;
  let s17l = s[34] ?? 0;
  let s17h = s[35] ?? 0;
  let s18l = s[36] ?? 0;
  let s18h = s[37] ?? 0;
  let s19l = s[38] ?? 0;
  let s19h = s[39] ?? 0;
  let s20l = s[40] ?? 0;
  let s20h = s[41] ?? 0;
  let s21l = s[42] ?? 0;
  let s21h = s[43] ?? 0;
  let s22l = s[44] ?? 0;
  let s22h = s[45] ?? 0;
  let s23l = s[46] ?? 0;
  let s23h = s[47] ?? 0;
  let s24l = s[48] ?? 0;
  let s24h = s[49] ?? 0;
  for (let round = 0; round < ROUNDS; round++) {
    // theta: the column parities c, then d[x] = c[x - 1] ^ rot1(c[x + 1]) into every lane of column x
    const c0l = s0l ^ s5l ^ s10l ^ s15l ^ s20l;
    const c0h = s0h ^ s5h ^ s10h ^ s15h ^ s20h;
    const c1l = s1l ^ s6l ^ s11l ^ s16l ^ s21l;
    const c1h = s1h ^ s6h ^ s11h ^ s16h ^ s21h;
    const c2l = s2l ^ s7l ^ s12l ^ s17l ^ s22l;
    const c2h = s2h ^ s7h ^ s12h ^ s17h ^ s22h;
    const c3l = s3l ^ s8l ^ s13l ^ s18l ^ s23l;
    const c3h = s3h ^ s8h ^ s13h ^ s18h ^ s23h;
    const c4l = s4l ^ s9l ^ s14l ^ s19l ^ s24l;
    const c4h = s4h ^ s9h ^ s14h ^ s19h ^ s24h;
    const d0l = c4l ^ ((c1l << 1) | (c1h >>> 31));
    const d0h = c4h ^ ((c1h << 1) | (c1l >>> 31));
    const d1l = c0l ^ ((c2l << 1) | (c2h >>> 31));
    const d1h = c0h ^ ((c2h << 1) | (c2l >>> 31));
    const d2l = c1l ^ ((c3l << 1) | (c3h >>> 31));
    const d2h = c1h ^ ((c3h << 1) | (c3l >>> 31));
    const d3l = c2l ^ ((c4l << 1) | (c4h >>> 31));
    const d3h = c2h ^ ((c4h << 1) | (c4l >>> 31));
    const d4l = c3l ^ ((c0l << 1) | (c0h >>> 31));
    const d4h = c3h ^ ((c0h << 1) | (c0l >>> 31));
    // rho and pi: lane i rotated by its offset into lane target(i), theta's d applied on the way
    const t0l = s0l ^ d0l;
    const t0h = s0h ^ d0h;
    const b0l = t0l;
    const b0h = t0h;
    const t1l = s1l ^ d1l;
    const t1h = s1h ^ d1h;
    const b10l = (t1l << 1) | (t1h >>> 31);
    const b10h = (t1h << 1) | (t1l >>> 31);
    const t2l = s2l ^ d2l;
    const t2h = s2h ^ d2h;
    const b20l = (t2h << 30) | (t2l >>> 2);
    const b20h = (t2l << 30) | (t2h >>> 2);
    const t3l = s3l ^ d3l;
    const t3h = s3h ^ d3h;
    const b5l = (t3l << 28) | (t3h >>> 4);
    const b5h = (t3h << 28) | (t3l >>> 4);
    const t4l = s4l ^ d4l;
    const t4h = s4h ^ d4h;
    const b15l = (t4l << 27) | (t4h >>> 5);
    const b15h = (t4h << 27) | (t4l >>> 5);
    const t5l = s5l ^ d0l;
    const t5h = s5h ^ d0h;
    const b16l = (t5h << 4) | (t5l >>> 28);
    const b16h = (t5l << 4) | (t5h >>> 28);
    const t6l = s6l ^ d1l;
    const t6h = s6h ^ d1h;
    const b1l = (t6h << 12) | (t6l >>> 20);
    const b1h = (t6l << 12) | (t6h >>> 20);
    const t7l = s7l ^ d2l;
    const t7h = s7h ^ d2h;
    const b11l = (t7l << 6) | (t7h >>> 26);
    const b11h = (t7h << 6) | (t7l >>> 26);
    const t8l = s8l ^ d3l;
    const t8h = s8h ^ d3h;
    const b21l = (t8h << 23) | (t8l >>> 9);
    const b21h = (t8l << 23) | (t8h >>> 9);
    const t9l = s9l ^ d4l;
    const t9h = s9h ^ d4h;
    const b6l = (t9l << 20) | (t9h >>> 12);
    const b6h = (t9h << 20) | (t9l >>> 12);
    const t10l = s10l ^ d0l;
    const t10h = s10h ^ d0h;
    const b7l = (t10l << 3) | (t10h >>> 29);
    const b7h = (t10h << 3) | (t10l >>> 29);
    const t11l = s11l ^ d1l;
    const t11h = s11h ^ d1h;
    const b17l = (t11l << 10) | (t11h >>> 22);
    const b17h = (t11h << 10) | (t11l >>> 22);
    const t12l = s12l ^ d2l;
    const t12h = s12h ^ d2h;
    const b2l = (t12h << 11) | (t12l >>> 21);
    const b2h = (t12l << 11) | (t12h >>> 21);
    const t13l = s13l ^ d3l;
    const t13h = s13h ^ d3h;
    const b12l = (t13l << 25) | (t13h >>> 7);
    const b12h = (t13h << 25) | (t13l >>> 7);
    const t14l = s14l ^ d4l;
    const t14h = s14h ^ d4h;
    const b22l = (t14h << 7) | (t14l >>> 25);
    const b22h = (t14l << 7) | (t14h >>> 25);
    const t15l = s15l ^ d0l;
    const t15h = s15h ^ d0h;
    const b23l = (t15h << 9) | (t15l >>> 23);
    const b23h = (t15l << 9) | (t15h >>> 23);
    const t16l = s16l ^ d1l;
    const t16h = s16h ^ d1h;
    const b8l = (t16h << 13) | (t16l >>> 19);
    const b8h = (t16l << 13) | (t16h >>> 19);
    const t17l = s17l ^ d2l;
    const t17h = s17h ^ d2h;
    const b18l = (t17l << 15) | (t17h >>> 17);
    const b18h = (t17h << 15) | (t17l >>> 17);
    const t18l = s18l ^ d3l;
    const t18h = s18h ^ d3h;
    const b3l = (t18l << 21) | (t18h >>> 11);
    const b3h = (t18h << 21) | (t18l >>> 11);
    const t19l = s19l ^ d4l;
    const t19h = s19h ^ d4h;
    const b13l = (t19l << 8) | (t19h >>> 24);
    const b13h = (t19h << 8) | (t19l >>> 24);
    const t20l = s20l ^ d0l;
    const t20h = s20h ^ d0h;
    const b14l = (t20l << 18) | (t20h >>> 14);
    const b14h = (t20h << 18) | (t20l >>> 14);
    const t21l = s21l ^ d1l;
    const t21h = s21h ^ d1h;
    const b24l = (t21l << 2) | (t21h >>> 30);
    const b24h = (t21h << 2) | (t21l >>> 30);
    const t22l = s22l ^ d2l;
    const t22h = s22h ^ d2h;
    const b9l = (t22h << 29) | (t22l >>> 3);
    const b9h = (t22l << 29) | (t22h >>> 3);
    const t23l = s23l ^ d3l;
    const t23h = s23h ^ d3h;
    const b19l = (t23h << 24) | (t23l >>> 8);
    const b19h = (t23l << 24) | (t23h >>> 8);
    const t24l = s24l ^ d4l;
    const t24h = s24h ^ d4h;
    const b4l = (t24l << 14) | (t24h >>> 18);
    const b4h = (t24h << 14) | (t24l >>> 18);
    // chi: each lane xored with (not its next) and its second next in the row; iota on lane 0
    s0l = b0l ^ (~b1l & b2l);
    s0h = b0h ^ (~b1h & b2h);
    s1l = b1l ^ (~b2l & b3l);
    s1h = b1h ^ (~b2h & b3h);
    s2l = b2l ^ (~b3l & b4l);
    s2h = b2h ^ (~b3h & b4h);
    s3l = b3l ^ (~b4l & b0l);
    s3h = b3h ^ (~b4h & b0h);
    s4l = b4l ^ (~b0l & b1l);
    s4h = b4h ^ (~b0h & b1h);
    s5l = b5l ^ (~b6l & b7l);
    s5h = b5h ^ (~b6h & b7h);
    s6l = b6l ^ (~b7l & b8l);
    s6h = b6h ^ (~b7h & b8h);
    s7l = b7l ^ (~b8l & b9l);
    s7h = b7h ^ (~b8h & b9h);
    s8l = b8l ^ (~b9l & b5l);
    s8h = b8h ^ (~b9h & b5h);
    s9l = b9l ^ (~b5l & b6l);
    s9h = b9h ^ (~b5h & b6h);
    s10l = b10l ^ (~b11l & b12l);
    s10h = b10h ^ (~b11h & b12h);
    s11l = b11l ^ (~b12l & b13l);
    s11h = b11h ^ (~b12h & b13h);
    s12l = b12l ^ (~b13l & b14l);
    s12h = b12h ^ (~b13h & b14h);
    s13l = b13l ^ (~b14l & b10l);
    s13h = b13h ^ (~b14h & b10h);
    s14l = b14l ^ (~b10l & b11l);
    s14h = b14h ^ (~b10h & b11h);
    s15l = b15l ^ (~b16l & b17l);
    s15h = b15h ^ (~b16h & b17h);
    s16l = b16l ^ (~b17l & b18l);
    s16h = b16h ^ (~b17h & b18h);
    s17l = b17l ^ (~b18l & b19l);
    s17h = b17h ^ (~b18h & b19h);
    s18l = b18l ^ (~b19l & b15l);
    s18h = b18h ^ (~b19h & b15h);
    s19l = b19l ^ (~b15l & b16l);
    s19h = b19h ^ (~b15h & b16h);
    s20l = b20l ^ (~b21l & b22l);
    s20h = b20h ^ (~b21h & b22h);
    s21l = b21l ^ (~b22l & b23l);
    s21h = b21h ^ (~b22h & b23h);
    s22l = b22l ^ (~b23l & b24l);
    s22h = b22h ^ (~b23h & b24h);
    s23l = b23l ^ (~b24l & b20l);
    s23h = b23h ^ (~b24h & b20h);
    s24l = b24l ^ (~b20l & b21l);
    s24h = b24h ^ (~b20h & b21h);
    s0l ^= rcLo[round] ?? 0;
    s0h ^= rcHi[round] ?? 0;

  }
  s[0] = s0l;
  s[1] = s0h;
  s[2] = s1l;
  s[3] = s1h;
  s[4] = s2l;
  s[5] = s2h;
  s[6] = s3l;
  s[7] = s3h;
  s[8] = s4l;
  s[9] = s4h;
  s[10] = s5l;
  s[11] = s5h;
  s[12] = s6l;
  s[13] = s6h;
  s[14] = s7l;
  s[15] = s7h;
  s[16] = s8l;
  s[17] = s8h;
  s[18] = s9l;
  s[19] = s9h;
  s[20] = s10l;
  s[21] = s10h;
  s[22] = s11l;
  s[23] = s11h;
  s[24] = s12l;
  s[25] = s12h;
  s[26] = s13l;
  s[27] = s13h;
  s[28] = s14l;
  s[29] = s14h;
  s[30] = s15l;
  s[31] = s15h;
  s[32] = s16l;
  s[33] = s16h;
  s[34] = s17l;
  s[35] = s17h;
  s[36] = s18l;
  s[37] = s18h;
  s[38] = s19l;
  s[39] = s19h;
  s[40] = s20l;
  s[41] = s20h;
  s[42] = s21l;
  s[43] = s21h;
  s[44] = s22l;
  s[45] = s22h;
  s[46] = s23l;
  s[47] = s23h;
  s[48] = s24l;
  s[49] = s24h;
}

/** The 32-byte SHA3-256 digest of `input` (a string is hashed as UTF-8). */
export function sha3_256(input: string | Uint8Array): Uint8Array {
  roundConstants ??= buildRoundConstants();
  const data = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
  // Padding: the domain bits 01, then 10*1, to a whole number of 136-byte blocks.
  const padded = new Uint8Array((Math.floor(data.length / RATE_BYTES) + 1) * RATE_BYTES);
  padded.set(data);
  padded[data.length] = (padded[data.length] ?? 0) ^ 0x06;
  padded[padded.length - 1] = (padded[padded.length - 1] ?? 0) ^ 0x80;
  const view = new DataView(padded.buffer, padded.byteOffset, padded.byteLength);
  const state = new Int32Array(50);
  for (let offset = 0; offset < padded.length; offset += RATE_BYTES) {
    for (let w = 0; w < RATE_BYTES / 4; w++) state[w] = (state[w] ?? 0) ^ view.getInt32(offset + 4 * w, true);
    permute(state, roundConstants.lo, roundConstants.hi);
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  for (let w = 0; w < 8; w++) outView.setInt32(4 * w, state[w] ?? 0, true);
  return out;
}

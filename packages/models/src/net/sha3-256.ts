/**
 * SHA3-256 (FIPS 202) in plain JavaScript, for the hostname-hash label only. Loading `node:crypto`
 * costs a CNI call several milliseconds (design/models.md, "Hostname hash without node:crypto");
 * hashing one host name here costs microseconds. Not for secrets: no constant-time claims.
 *
 * Keccak-f[1600] over 25 lanes of 64 bits, each held as two 32-bit halves (low at 2i, high at 2i+1).
 * The halves are kept signed (`Int32Array`): the bitwise operators give signed 32-bit results, which
 * V8's interpreter holds as small integers, where an unsigned half above 2^31 became a heap number
 * at every read (a plugin call runs this uncompiled by the optimizer).
 */

const RATE_BYTES = 136;
const ROUNDS = 24;

interface Tables {
  /** Round constants, low and high halves. */
  readonly rcLo: Int32Array;
  readonly rcHi: Int32Array;
  /** Rotation of lane x + 5y, and the lane it moves to under pi. */
  readonly rotation: Uint8Array;
  readonly target: Uint8Array;
}

let tables: Tables | undefined;

/** Derives the constants from their definitions (the LFSR and the (x, y) walk) instead of listing them. */
function buildTables(): Tables {
  const rcLo = new Int32Array(ROUNDS);
  const rcHi = new Int32Array(ROUNDS);
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
      if (position < 32) rcLo[round] = (rcLo[round] ?? 0) | (1 << position);
      else rcHi[round] = (rcHi[round] ?? 0) | (1 << (position - 32));
    }
  }
  const rotation = new Uint8Array(25);
  const target = new Uint8Array(25);
  let x = 1;
  let y = 0;
  for (let t = 0; t < 24; t++) {
    rotation[x + 5 * y] = (((t + 1) * (t + 2)) / 2) % 64;
    [x, y] = [y, (2 * x + 3 * y) % 5];
  }
  for (let lx = 0; lx < 5; lx++) for (let ly = 0; ly < 5; ly++) target[lx + 5 * ly] = ly + 5 * ((2 * lx + 3 * ly) % 5);
  return { rcLo, rcHi, rotation, target };
}

function permute(s: Int32Array, t: Tables, b: Int32Array, c: Int32Array): void {
  for (let round = 0; round < ROUNDS; round++) {
    // theta
    for (let x = 0; x < 5; x++) {
      c[2 * x] = (s[2 * x] ?? 0) ^ (s[2 * x + 10] ?? 0) ^ (s[2 * x + 20] ?? 0) ^ (s[2 * x + 30] ?? 0) ^ (s[2 * x + 40] ?? 0);
      c[2 * x + 1] = (s[2 * x + 1] ?? 0) ^ (s[2 * x + 11] ?? 0) ^ (s[2 * x + 21] ?? 0) ^ (s[2 * x + 31] ?? 0) ^ (s[2 * x + 41] ?? 0);
    }
    for (let x = 0; x < 5; x++) {
      const prev = ((x + 4) % 5) * 2;
      const next = ((x + 1) % 5) * 2;
      const nLo = c[next] ?? 0;
      const nHi = c[next + 1] ?? 0;
      const dLo = (c[prev] ?? 0) ^ ((nLo << 1) | (nHi >>> 31));
      const dHi = (c[prev + 1] ?? 0) ^ ((nHi << 1) | (nLo >>> 31));
      for (let y = 0; y < 25; y += 5) {
        const i = 2 * (x + y);
        s[i] = (s[i] ?? 0) ^ dLo;
        s[i + 1] = (s[i + 1] ?? 0) ^ dHi;
      }
    }
    // rho and pi
    for (let i = 0; i < 25; i++) {
      const lo = s[2 * i] ?? 0;
      const hi = s[2 * i + 1] ?? 0;
      const n = t.rotation[i] ?? 0;
      const to = 2 * (t.target[i] ?? 0);
      if (n === 0) {
        b[to] = lo;
        b[to + 1] = hi;
      } else if (n < 32) {
        b[to] = (lo << n) | (hi >>> (32 - n));
        b[to + 1] = (hi << n) | (lo >>> (32 - n));
      } else if (n === 32) {
        b[to] = hi;
        b[to + 1] = lo;
      } else {
        const m = n - 32;
        b[to] = (hi << m) | (lo >>> (32 - m));
        b[to + 1] = (lo << m) | (hi >>> (32 - m));
      }
    }
    // chi
    for (let y = 0; y < 25; y += 5) {
      for (let x = 0; x < 5; x++) {
        const i = 2 * (x + y);
        const j = 2 * (((x + 1) % 5) + y);
        const k = 2 * (((x + 2) % 5) + y);
        s[i] = (b[i] ?? 0) ^ (~(b[j] ?? 0) & (b[k] ?? 0));
        s[i + 1] = (b[i + 1] ?? 0) ^ (~(b[j + 1] ?? 0) & (b[k + 1] ?? 0));
      }
    }
    // iota
    s[0] = (s[0] ?? 0) ^ (t.rcLo[round] ?? 0);
    s[1] = (s[1] ?? 0) ^ (t.rcHi[round] ?? 0);
  }
}

/** The 32-byte SHA3-256 digest of `input` (a string is hashed as UTF-8). */
export function sha3_256(input: string | Uint8Array): Uint8Array {
  tables ??= buildTables();
  const data = typeof input === 'string' ? Buffer.from(input, 'utf8') : input;
  // Padding: the domain bits 01, then 10*1, to a whole number of 136-byte blocks.
  const padded = new Uint8Array((Math.floor(data.length / RATE_BYTES) + 1) * RATE_BYTES);
  padded.set(data);
  padded[data.length] = (padded[data.length] ?? 0) ^ 0x06;
  padded[padded.length - 1] = (padded[padded.length - 1] ?? 0) ^ 0x80;
  const view = new DataView(padded.buffer, padded.byteOffset, padded.byteLength);
  const state = new Int32Array(50);
  const b = new Int32Array(50);
  const c = new Int32Array(10);
  for (let offset = 0; offset < padded.length; offset += RATE_BYTES) {
    for (let w = 0; w < RATE_BYTES / 4; w++) state[w] = (state[w] ?? 0) ^ view.getInt32(offset + 4 * w, true);
    permute(state, tables, b, c);
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  for (let w = 0; w < 8; w++) outView.setInt32(4 * w, state[w] ?? 0, true);
  return out;
}

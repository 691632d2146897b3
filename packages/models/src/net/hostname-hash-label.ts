import { sha3_256 } from './sha3-256.js';

const BASE32_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32, standard alphabet, without `=` padding. */
export function base32NoPadding(bytes: Uint8Array): string {
  let out = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = ((buffer << 8) | byte) & 0xffff;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += BASE32_ALPHABET.charAt((buffer >> bits) & 31);
    }
  }
  if (bits > 0) out += BASE32_ALPHABET.charAt((buffer << (5 - bits)) & 31);
  return out;
}

/**
 * Value of the `projectcalico.org/hostname-hash` label (design/calico-stored-formats.md#affinities): hostnames may be longer
 * than the 63-character label-value limit, so the label carries a fixed 52-character hash instead.
 */
export function hostnameHashLabel(host: string): string {
  return base32NoPadding(sha3_256(host));
}

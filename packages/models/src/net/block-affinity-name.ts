import { createHash } from 'node:crypto';
import { cidrToName } from './cidr-to-name.js';

/** Kubernetes caps object names at 253 bytes; Calico shortens from this length on. */
const MAX_NAME_BYTES = 253;
const SHORT_NAME_BYTES = 252;
const HASH_HEX_DIGITS = 11;

/**
 * BlockAffinity object name (design/calico-stored-formats.md#affinities): `<host>-<cidrName>`, or, when that would reach
 * 253 bytes, the host cut short and an 11-hex-digit SHA-256 suffix appended (exactly 252 bytes).
 * The affinity type is deliberately not part of the name.
 */
export function blockAffinityName(host: string, cidr: string): string {
  const cidrName = cidrToName(cidr);
  const name = `${host}-${cidrName}`;
  if (Buffer.byteLength(name) < MAX_NAME_BYTES) return name;
  const keep = SHORT_NAME_BYTES - Buffer.byteLength(cidrName) - HASH_HEX_DIGITS - 2;
  const suffix = createHash('sha256').update(`${host}+${cidrName}`).digest('hex').slice(0, HASH_HEX_DIGITS);
  // Lengths are bytes, as in Go; host names are ASCII in practice (DNS labels).
  const hostPart = Buffer.from(host).subarray(0, keep).toString();
  return `${hostPart}-${cidrName}-${suffix}`;
}

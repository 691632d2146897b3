import { createHash } from 'node:crypto';

/**
 * `prefix + suffix`, or, when that would exceed `maxLength` (or exactly reach it with a suffix
 * starting with `_`), `prefix + "_" + base64url(SHA-256(suffix))` cut to fit (design/calico-ipam.md#handle-ids).
 * Calico panics when the room exceeds the 43-character hash; we keep the whole hash instead.
 */
export function lengthLimitedId(prefix: string, rawSuffix: string, maxLength: number): string {
  const suffix = rawSuffix === '' ? '_' : rawSuffix;
  const total = prefix.length + suffix.length;
  if (total < maxLength || (total === maxLength && !suffix.startsWith('_'))) {
    return prefix + suffix;
  }
  const room = maxLength - 1 - prefix.length;
  if (room <= 0) {
    throw new RangeError(`prefix ${JSON.stringify(prefix)} leaves no room within ${maxLength} characters`);
  }
  const hash = createHash('sha256').update(suffix, 'utf8').digest('base64url');
  return `${prefix}_${hash.slice(0, room)}`;
}

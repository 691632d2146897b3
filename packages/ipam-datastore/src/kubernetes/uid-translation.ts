/**
 * Calico's v1-group UID translation (design/calico-stored-formats.md#v1-metadata-translation): every byte of the 16-byte UID is
 * bit-reversed except bytes 6 and 8 (UUID version and variant). The transform is its own inverse,
 * so the same function maps real → exposed and exposed → real. A UID that is not a 16-byte hex
 * UUID is passed through unchanged.
 */
export function translateUid(uid: string): string {
  const hex = uid.replaceAll('-', '');
  if (!/^[0-9a-fA-F]{32}$/.test(hex)) return uid;
  const bytes = Buffer.from(hex, 'hex');
  for (let i = 0; i < 16; i += 1) {
    if (i === 6 || i === 8) continue;
    let b = bytes[i] ?? 0;
    let r = 0;
    for (let bit = 0; bit < 8; bit += 1) {
      r = (r << 1) | (b & 1);
      b >>= 1;
    }
    bytes[i] = r;
  }
  const out = bytes.toString('hex');
  return `${out.slice(0, 8)}-${out.slice(8, 12)}-${out.slice(12, 16)}-${out.slice(16, 20)}-${out.slice(20)}`;
}

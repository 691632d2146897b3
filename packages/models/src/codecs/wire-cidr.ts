import { IpamError } from '../errors.js';
import { canonicalCidr, parseCidr } from '../net/cidr.js';
import { codecFail } from './field-readers.js';

/** Canonical masked CIDR text (design/calico-stored-formats.md#encoding-rules), or a CodecError naming the wire field. */
export function wireCidr(text: string, path: string): string {
  try {
    return canonicalCidr(text);
  } catch (err) {
    if (err instanceof IpamError) return codecFail(path, `${JSON.stringify(text)} is not a valid CIDR`);
    throw err;
  }
}

// A block bigger than this cannot be a Calico block (pool block sizes are /20../32 and /116../128).
const MAX_BLOCK_HOST_BITS = 16;

/** Number of addresses of a block CIDR, which is the required length of `allocations`. */
export function blockSizeOf(cidr: string, path: string): number {
  const parsed = parseCidr(wireCidr(cidr, path));
  const hostBits = (parsed.version === 4 ? 32 : 128) - parsed.prefixLength;
  if (hostBits > MAX_BLOCK_HOST_BITS) codecFail(path, `block ${cidr} is larger than any Calico block size`);
  return 2 ** hostBits;
}

/** etcd keys replace only the `/` of a CIDR (design/calico-stored-formats.md#encoding-rules, design/calico-stored-formats.md#etcdv3-layout): `fd00::/122` → `fd00::-122`. */
export function cidrToEtcdSegment(cidr: string): string {
  return cidr.replace('/', '-');
}

export function cidrFromEtcdSegment(segment: string, path: string): string {
  const dash = segment.lastIndexOf('-');
  if (dash < 0) return codecFail(path, `${JSON.stringify(segment)} is not a CIDR key segment`);
  return wireCidr(`${segment.slice(0, dash)}/${segment.slice(dash + 1)}`, path);
}

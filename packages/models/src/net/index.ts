// CIDR and address math, and the names and labels derived from CIDRs and hosts.
export type { ParsedAddress } from './address.js';
export {
  isIPv4,
  isIPv6,
  parseAddress,
  canonicalAddress,
  ipVersionOfAddress,
  addressToBigInt,
  bigIntToAddress,
} from './address.js';
export { formatIPv4, formatIPv6, formatAddress } from './format-address.js';
export { bitsOf, maskOf } from './ip-version-bits.js';
export type { ParsedCidr, ParsedCidrWithAddress } from './cidr.js';
export {
  parseCidr,
  parseCidrWithAddress,
  parseAddressOrCidr,
  isMaskedCidr,
  formatCidr,
  canonicalCidr,
  ipVersionOfCidr,
  cidrSize,
  cidrContains,
  cidrsOverlap,
} from './cidr.js';
export { ordinalOf, bigOrdinalOf, addressAt, blockCidrFor } from './ordinal.js';
export { blocksOf, blockAt, blockCountOf } from './blocks-of.js';
export { cidrToName } from './cidr-to-name.js';
export { blockAffinityName } from './block-affinity-name.js';
export { hostnameHashLabel } from './hostname-hash-label.js';
export {
  AFFINITY_HOSTNAME_HASH_LABEL,
  AFFINITY_TYPE_LABEL,
  AFFINITY_IP_VERSION_LABEL,
  affinityLabels,
} from './affinity-labels.js';

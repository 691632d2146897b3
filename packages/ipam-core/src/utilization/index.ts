export {
  intersectRanges,
  normalizeRanges,
  rangeOfCidr,
  rangesContain,
  rangesSize,
  subtractRanges,
  unionRanges,
  type AddressRange,
  type RangeSet,
} from './cidr-ranges.js';
export { numReservedIPsInCIDR } from './num-reserved-ips-in-cidr.js';
export {
  ORPHANED_BLOCKS_POOL,
  computeUtilization,
  type ComputeUtilizationArgs,
} from './compute-utilization.js';

export {
  intersectRanges,
  normalizeRanges,
  overlapSize,
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
export {
  createUtilizationAccumulator,
  type UtilizationAccumulator,
  type UtilizationAccumulatorArgs,
  type UtilizationBlock,
} from './utilization-accumulator.js';

import { type IPReservation, type IPVersion } from '@ipamkit/models';
import { parseInputAddress, parseBlockInterval } from '../block/ip-address.js';
import {
  intersectRanges,
  normalizeRanges,
  rangeOfCidr,
  rangesContain,
  rangesSize,
  type RangeSet,
} from '../utilization/cidr-ranges.js';
import { parseReservedCidrs } from './parse-reserved-cidrs.js';

/**
 * Answers "is this reserved?" for addresses and CIDRs (design/calico-ipam.md#reservation-filter), over the union of all
 * reserved CIDRs. Because CIDRs are aligned, "some reservation covers it" and "the nested
 * reservations inside it add up to all of it" are both just "the union covers it".
 */
export interface ReservationFilter {
  /** The normalized union of every reserved CIDR. */
  readonly reserved: RangeSet;
  /** `invalid` entries skipped while parsing (for logging). */
  readonly invalid: readonly string[];
  matchesAddress(ip: string): boolean;
  matchesValue(version: IPVersion, value: bigint): boolean;
  /** Some reserved address lies in `cidr`. */
  matchesSome(cidr: string): boolean;
  /** Every address of `cidr` is reserved. */
  matchesWholeCidr(cidr: string): boolean;
  /** How many addresses of `cidr` are reserved. */
  countIn(cidr: string): bigint;
}

/** Builds the filter from IPReservation objects (parsing per design/calico-ipam.md#reservation-parsing). */
export function createReservationFilter(reservations: readonly IPReservation[]): ReservationFilter {
  const { cidrs, invalid } = parseReservedCidrs(reservations);
  const reserved = normalizeRanges(cidrs.map(rangeOfCidr));
  const countIn = (cidr: string): bigint => rangesSize(intersectRanges([rangeOfCidr(parseBlockInterval(cidr))], reserved));
  return {
    reserved,
    invalid,
    matchesAddress: (ip) => {
      const { version, value } = parseInputAddress(ip);
      return rangesContain(reserved, version, value);
    },
    matchesValue: (version, value) => rangesContain(reserved, version, value),
    matchesSome: (cidr) => countIn(cidr) > 0n,
    matchesWholeCidr: (cidr) => countIn(cidr) === parseBlockInterval(cidr).size,
    countIn,
  };
}

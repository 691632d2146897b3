import type { IPReservation } from '@ipamkit/models';
import { parseBlockInterval } from '../block/ip-address.js';
import { createReservationFilter } from '../reservations/reservation-filter.js';

/**
 * How many addresses of `cidr` are covered by the reservations (design/calico-ipam.md#reserved-addresses-in-a-cidr):
 * |cidr| − |cidr \ ⋃reserved|, with overlapping and nested reservations counted once.
 * Throws InvalidAddressError for a malformed `cidr`; malformed reservation entries are skipped.
 */
export function numReservedIPsInCIDR(cidr: string, reservations: readonly IPReservation[]): bigint {
  parseBlockInterval(cidr);
  return createReservationFilter(reservations).countIn(cidr);
}

import type { IPReservation } from '@ipamkit/models';
import { parseBlockInterval, type BlockInterval } from '../block/ip-address.js';

/** The reserved CIDRs of every IPReservation, plus the entries that could not be parsed. */
export interface ParsedReservations {
  cidrs: BlockInterval[];
  /** `"<reservation name>: <entry>"` for each skipped entry, for the caller to log. */
  invalid: string[];
}

/**
 * design/calico-ipam.md#reservation-parsing: trim each entry, skip blanks, accept a CIDR (masked) or a bare address
 * (a /32 or /128), skip anything unparsable. Overlaps and nesting are kept as they are; the set
 * arithmetic handles them.
 */
export function parseReservedCidrs(reservations: readonly IPReservation[]): ParsedReservations {
  const cidrs: BlockInterval[] = [];
  const invalid: string[] = [];
  for (const reservation of reservations) {
    for (const entry of reservation.reservedCIDRs) {
      const text = entry.trim();
      if (text === '') continue;
      try {
        cidrs.push(parseBlockInterval(text, true));
      } catch {
        invalid.push(`${reservation.name}: ${entry}`);
      }
    }
  }
  return { cidrs, invalid };
}

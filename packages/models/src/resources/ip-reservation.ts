/** Addresses IPAM must never hand out (spec/datastore.md §7.2). Never written by IPAM. */
export interface IPReservation {
  name: string;
  reservedCIDRs: string[];
}

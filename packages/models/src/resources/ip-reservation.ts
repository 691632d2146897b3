/** Addresses IPAM must never hand out (design/calico-stored-formats.md#ip-reservations). Never written by IPAM. */
export interface IPReservation {
  name: string;
  reservedCIDRs: string[];
}

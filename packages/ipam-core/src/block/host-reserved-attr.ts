/** Handle of host-reserved ordinals (Windows); such allocations never make a block non-empty. */
export const WINDOWS_RESERVED_HANDLE = 'windows-reserved-ipam-handle';

/**
 * Ordinals to pre-allocate at the start and end of a newly created block (design/calico-ipam.md).
 * CNI on Windows uses `{ startOfBlock: 3, endOfBlock: 1, handle: WINDOWS_RESERVED_HANDLE,
 * note: 'windows host rsvd' }` for IPv4.
 */
export interface HostReservedAttr {
  startOfBlock: number;
  endOfBlock: number;
  handle: string;
  note: string;
}

/** Which blocks hold allocations for a handle, and how many (design/calico-stored-formats.md#handles). */
export interface IPAMHandle {
  /** Case preserved; the Kubernetes object name is its lower-cased form. */
  handleId: string;
  /** Block CIDR → number of this handle's allocations in it; zero entries are removed. */
  block: Record<string, number>;
  deleted: boolean;
}

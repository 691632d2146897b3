import type { AllocationBlock, BlockAffinity, Datastore, IPAMHandle } from '@ipamkit/models';

/** A row written behind the datastore's back with `deleted: true`, as a half-finished Calico delete leaves it. */
export type SoftDeletedRow =
  | { readonly kind: 'block'; readonly value: AllocationBlock }
  | { readonly kind: 'affinity'; readonly value: BlockAffinity }
  | { readonly kind: 'handle'; readonly value: IPAMHandle };

/** What a backend's `setup` hands the contract suite; `setup` runs before every test. */
export interface ContractBackend {
  readonly datastore: Datastore;
  /** Closes the datastore and removes whatever `setup` created (files, prefixes, servers). */
  cleanup(): Promise<void>;
  /**
   * Stores `row` (its `deleted` is already true) directly in the backing store, bypassing the
   * datastore's own write path. Backends that can hold such rows provide it; the suite then checks
   * that every reader hides them and that a create over one succeeds.
   */
  injectSoftDeleted?: (row: SoftDeletedRow) => Promise<void>;
}

export type ContractSetup = () => Promise<ContractBackend>;

export interface ContractOptions {
  /**
   * Whether the backend offers `datastore.transact` (default true). The suite checks the
   * declaration, and runs the transaction tests only when it is true.
   */
  readonly transact?: boolean;
  /**
   * Whether the backend offers `blocks.listPage` and `blocks.listOrdinalsPage` (default true). The
   * suite checks the declaration, and runs the paging tests only when it is true.
   */
  readonly paging?: boolean;
  /** Per-test timeout in ms for the watch tests (default 30 000). */
  readonly watchTimeoutMs?: number;
}

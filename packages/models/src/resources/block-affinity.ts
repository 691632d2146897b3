import type { AffinityType } from './allocation-block.js';

/** `""` is legacy data written by old Calico versions. */
export type AffinityState = 'pending' | 'confirmed' | 'pendingDeletion' | '';

/** A host's (or virtual owner's) claim on a block (design/calico-stored-formats.md#affinities). */
export interface BlockAffinity {
  host: string;
  type: AffinityType;
  cidr: string;
  state: AffinityState;
  deleted: boolean;
}

/** What identifies an affinity; the type is part of the key but not of the Kubernetes name. */
export interface AffinityKey {
  host: string;
  type: AffinityType;
  cidr: string;
}

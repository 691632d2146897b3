import type { IntendedUse } from './intended-use.js';

export type EncapsulationMode = 'Never' | 'Always' | 'CrossSubnet';
export type AssignmentMode = 'Automatic' | 'Manual';

/** A `status.conditions[]` entry of an IPPool (metav1.Condition). */
export interface PoolCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

/**
 * An IP pool as IPAM reads it (design/calico-stored-formats.md#ip-pools). Optional fields are absent on the wire
 * when unset; `applyIPPoolDefaults` fills them the way clientv3 does on read.
 */
export interface IPPool {
  name: string;
  cidr: string;
  blockSize?: number;
  disabled?: boolean;
  nodeSelector?: string;
  namespaceSelector?: string;
  allowedUses?: IntendedUse[];
  assignmentMode?: AssignmentMode;
  ipipMode?: EncapsulationMode;
  vxlanMode?: EncapsulationMode;
  natOutgoing?: boolean;
  disableBGPExport?: boolean;
  /** Set while the pool is being deleted; such a pool is not used for allocation. */
  deletionTimestamp?: string;
  /** `status.conditions`; `Allocatable=False` removes the pool from the enabled set. */
  conditions?: PoolCondition[];
  labels?: Record<string, string>;
  /**
   * Wire fields this model does not name, by object section, kept by the codecs so that a
   * read-modify-write of a pool does not drop fields a newer Calico added.
   */
  unknownFields?: WireUnknownFields;
}

/** Fields of a stored object that the model does not name, by the section they came from. */
export interface WireUnknownFields {
  metadata?: Record<string, unknown>;
  spec?: Record<string, unknown>;
  status?: Record<string, unknown>;
}

import type { AllocationBlock } from '../resources/allocation-block.js';
import type { BlockAffinity } from '../resources/block-affinity.js';
import type { IPAMConfig } from '../resources/ipam-config.js';
import type { IPAMHandle } from '../resources/ipam-handle.js';
import type { IPPool } from '../resources/ip-pool.js';
import type { IPReservation } from '../resources/ip-reservation.js';
import type { WireMeta } from './kube-object.js';

/** The kinds with a wire form in every datastore (design/architecture.md#public-api). */
export type WireKind = 'IPAMBlock' | 'BlockAffinity' | 'IPAMHandle' | 'IPAMConfig' | 'IPPool' | 'IPReservation';

export const WIRE_KINDS: readonly WireKind[] = ['IPAMBlock', 'BlockAffinity', 'IPAMHandle', 'IPAMConfig', 'IPPool', 'IPReservation'];

/** The model type of each wire kind. */
export interface WireModels {
  IPAMBlock: AllocationBlock;
  BlockAffinity: BlockAffinity;
  IPAMHandle: IPAMHandle;
  IPAMConfig: IPAMConfig;
  IPPool: IPPool;
  IPReservation: IPReservation;
}

export type WireModel<K extends WireKind> = WireModels[K];

/** Any model a codec handles (design/architecture.md#public-api `Model`). */
export type Model = WireModel<WireKind>;

/** What a decoder returns: the model plus the revision and UID the object carried, if any. */
export type DecodedModel<K extends WireKind> = WireModel<K> & WireMeta;

/** A decoded etcd entry, discriminated by kind. */
export type EtcdEntry = { [K in WireKind]: { kind: K; model: WireModel<K> } }[WireKind];

export function isWireKind(value: unknown): value is WireKind {
  return WIRE_KINDS.some((k) => k === value);
}

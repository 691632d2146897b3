import { codecFail } from './field-readers.js';
import { ipPoolCodec } from './ip-pool-codec.js';
import { ipReservationCodec } from './ip-reservation-codec.js';
import { type CrdCodec, affinityCrdCodec, blockCrdCodec, handleCrdCodec, ipamConfigCrdCodec } from './ipam-crd-codecs.js';
import type { CrdGroup, KubeObject } from './kube-object.js';
import { type DecodedModel, type WireKind, type WireModels, isWireKind } from './wire-kind.js';

const CODECS: { [K in WireKind]: CrdCodec<WireModels[K]> } = {
  IPAMBlock: blockCrdCodec,
  BlockAffinity: affinityCrdCodec,
  IPAMHandle: handleCrdCodec,
  IPAMConfig: ipamConfigCrdCodec,
  IPPool: ipPoolCodec,
  IPReservation: ipReservationCodec,
};

function codecFor<K extends WireKind>(kind: K): CrdCodec<WireModels[K]> {
  if (!isWireKind(kind)) codecFail('kind', `${JSON.stringify(kind)} is not a wire kind`);
  return CODECS[kind];
}

/** A `crd.projectcalico.org/v1` object → our model (metadata translation of design/calico-stored-formats.md#v1-metadata-translation). */
export function decodeV1<K extends WireKind>(kind: K, cr: unknown): DecodedModel<K> {
  return codecFor(kind).decode(cr, 'v1');
}

/** Our model → a `crd.projectcalico.org/v1` object, as Calico's KDD client would write it. */
export function encodeV1<K extends WireKind>(kind: K, model: DecodedModel<K>): KubeObject {
  return codecFor(kind).encode(model, 'v1');
}

/** A `projectcalico.org/v3` object → our model (config kind `IPAMConfiguration`). */
export function decodeV3<K extends WireKind>(kind: K, cr: unknown): DecodedModel<K> {
  return codecFor(kind).decode(cr, 'v3');
}

export function encodeV3<K extends WireKind>(kind: K, model: DecodedModel<K>): KubeObject {
  return codecFor(kind).encode(model, 'v3');
}

/** Either group, chosen at run time (the Kubernetes backend's `apiGroup`). */
export function decodeCrd<K extends WireKind>(kind: K, cr: unknown, group: CrdGroup): DecodedModel<K> {
  return codecFor(kind).decode(cr, group);
}

export function encodeCrd<K extends WireKind>(kind: K, model: DecodedModel<K>, group: CrdGroup): KubeObject {
  return codecFor(kind).encode(model, group);
}

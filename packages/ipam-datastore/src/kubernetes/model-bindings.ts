import {
  affinityRowKeyOf,
} from './affinity-key.js';
import {
  blockAffinityName,
  cidrToName,
  decodeCrd,
  encodeCrd,
  type CrdGroup,
  type Versioned,
  type WireKind,
  type WireModels,
} from '@ipamkit/models';
import type { ModelBinding } from './crd-model-store.js';
import { KubeCollection, type RawObject } from './kube-collection.js';
import type { KubeTransport } from './kube-transport.js';
import { translateUid } from './uid-translation.js';

const API_VERSIONS: Record<CrdGroup, string> = { v1: 'crd.projectcalico.org/v1', v3: 'projectcalico.org/v3' };

/** Plurals per kind; only the config differs between the groups (design/calico-stored-formats.md#backends-and-api-groups). */
const PLURALS: Record<CrdGroup, Record<WireKind, string>> = {
  v1: { IPAMBlock: 'ipamblocks', BlockAffinity: 'blockaffinities', IPAMHandle: 'ipamhandles', IPAMConfig: 'ipamconfigs', IPPool: 'ippools', IPReservation: 'ipreservations' },
  v3: { IPAMBlock: 'ipamblocks', BlockAffinity: 'blockaffinities', IPAMHandle: 'ipamhandles', IPAMConfig: 'ipamconfigurations', IPPool: 'ippools', IPReservation: 'ipreservations' },
};

function withUid(raw: RawObject, map: (uid: string) => string): RawObject {
  const uid = raw.metadata?.uid;
  if (uid === undefined || uid === '') return raw;
  return { ...raw, metadata: { ...raw.metadata, uid: map(uid) } };
}

/**
 * The codec of one kind in one group, with the v1 group's UID translation (design/calico-stored-formats.md#v1-metadata-translation) applied at the
 * edge: models carry the exposed UID, the wire carries the real one.
 */
function binding<K extends WireKind>(
  transport: KubeTransport,
  group: CrdGroup,
  kind: K,
  parts: Pick<ModelBinding<WireModels[K]>, 'softDelete' | 'nameOf' | 'keyOf' | 'isDeleted'>,
): ModelBinding<WireModels[K]> {
  const uidMap = group === 'v1' ? translateUid : (uid: string) => uid;
  return {
    ...parts,
    collection: new KubeCollection(transport, { apiVersion: API_VERSIONS[group], plural: PLURALS[group][kind] }),
    decode: (raw) => decodeCrd(kind, withUid(raw, uidMap), group) as Versioned<WireModels[K]>,
    encode: (model) => withUid(encodeCrd(kind, model, group) as unknown as RawObject, uidMap),
  };
}

const never = (): boolean => false;

/** The binding of each IPAM kind, its codec and collection in `group`. */
export function modelBindings(transport: KubeTransport, group: CrdGroup) {
  return {
    blocks: binding(transport, group, 'IPAMBlock', {
      softDelete: true,
      nameOf: (b) => cidrToName(b.cidr),
      keyOf: (b) => b.cidr,
      isDeleted: (b) => b.deleted,
    }),
    affinities: binding(transport, group, 'BlockAffinity', {
      softDelete: true,
      nameOf: (a) => blockAffinityName(a.host, a.cidr),
      keyOf: affinityRowKeyOf,
      isDeleted: (a) => a.deleted,
    }),
    handles: binding(transport, group, 'IPAMHandle', {
      softDelete: true,
      nameOf: (h) => h.handleId.toLowerCase(),
      keyOf: (h) => h.handleId,
      isDeleted: (h) => h.deleted,
    }),
    ipamConfig: binding(transport, group, 'IPAMConfig', { softDelete: false, nameOf: () => 'default', keyOf: () => 'default', isDeleted: never }),
    ipPools: binding(transport, group, 'IPPool', { softDelete: false, nameOf: (p) => p.name, keyOf: (p) => p.name, isDeleted: never }),
    ipReservations: binding(transport, group, 'IPReservation', {
      softDelete: false,
      nameOf: (r) => r.name,
      keyOf: (r) => r.name,
      isDeleted: never,
    }),
  };
}

import {
  CodecError,
  ETCD_HANDLE_PREFIX,
  ETCD_IPAM_ROOT,
  ETCD_IPPOOL_PREFIX,
  ETCD_IPRESERVATION_PREFIX,
  ETCD_NODE_PREFIX,
  ValidationError,
  decodeEtcd,
  decodeEtcdNode,
  encodeEtcd,
  encodeEtcdNode,
  etcdAffinityPrefixes,
  etcdBlockPrefix,
  etcdKeyForAffinity,
  etcdKeyForBlock,
  etcdKeyForHandle,
  etcdKeyForIPAMConfig,
  etcdKeyForIPPool,
  etcdKeyForIPReservation,
  etcdKeyForNode,
  ipVersionOfCidr,
  parseEtcdKey,
  type AffinityKey,
  type AffinityListOptions,
  type AllocationBlock,
  type BlockAffinity,
  type EtcdKeyTarget,
  type IPAMConfig,
  type IPAMHandle,
  type IPPool,
  type IPReservation,
  type IPVersion,
  type Namespace,
  type Node,
  type WireKind,
  type WireModel,
} from '@ipamkit/models';
import { decodeNamespace, encodeNamespace } from './namespace-codec.js';

/**
 * Calico's etcdv3 key layout and values come from the models codecs (design/calico-stored-formats.md#etcdv3-layout). The
 * one key tree of our own is for Namespaces, which Calico does not keep in etcd:
 * `/ipamkit/v1/namespaces/<name>`, outside `/calico/` so Calico's tools never meet it.
 */
export const NAMESPACE_PREFIX = '/ipamkit/v1/namespaces/';
export { ETCD_HANDLE_PREFIX as HANDLE_PREFIX, ETCD_IPPOOL_PREFIX as POOL_PREFIX, ETCD_NODE_PREFIX as NODE_PREFIX };
export { ETCD_IPRESERVATION_PREFIX as RESERVATION_PREFIX };

/** A key range: a prefix, or [start, end) when `end` is set. */
export interface KeyRange {
  readonly start: string;
  readonly end?: string;
}

/**
 * Host and virtual affinities sit under sibling trees; nothing Calico writes under /calico/ipam/v2/
 * sorts between `host/` and `virtual/` (only assignment, config, handle), so one range reads or
 * watches both at one revision. `0` is the byte after `/`.
 */
export const ALL_AFFINITIES: KeyRange = { start: `${ETCD_IPAM_ROOT}host/`, end: `${ETCD_IPAM_ROOT}virtual0` };

/** How one kind of object is stored: its key, its value codec, and its soft-delete flag. */
export interface EtcdKind<T, Id> {
  readonly what: string;
  key(id: Id): string;
  idOf(value: T): Id;
  describe(id: Id): string;
  /** The watch-event key: the store's identifier (name, CIDR, handle ID, `type/host/cidr`). */
  eventKey(id: Id): string;
  encode(value: T): string;
  /** `undefined` when `key` is not an object of this kind (legacy host markers, foreign keys). */
  decode(key: string, value: string): T | undefined;
  softDeleted(value: T): boolean;
}

/** What a Calico key names, or undefined for keys outside the layout (never an error: ranges hold both). */
function targetOf(key: string): EtcdKeyTarget | undefined {
  try {
    return parseEtcdKey(key);
  } catch (err) {
    if (err instanceof CodecError) return undefined;
    throw err;
  }
}

function wireKind<K extends WireKind, Id>(kind: K, key: (id: Id) => string, soft: (v: WireModel<K>) => boolean) {
  return {
    encode: (value: WireModel<K>): string => encodeEtcd(kind, value).value,
    decode: (rawKey: string, value: string): WireModel<K> | undefined => {
      if (targetOf(rawKey)?.kind !== kind) return undefined;
      const entry = decodeEtcd(rawKey, value);
      return entry.kind === kind ? (entry.model as WireModel<K>) : undefined;
    },
    softDeleted: soft,
    key,
  };
}

const cidrKeyed = (what: string) => ({ describe: (cidr: string) => `${what} ${cidr}`, eventKey: (cidr: string) => cidr });

export const blockKind: EtcdKind<AllocationBlock, string> = {
  what: 'block',
  ...wireKind('IPAMBlock', etcdKeyForBlock, (b) => b.deleted),
  idOf: (b) => b.cidr,
  ...cidrKeyed('block'),
};

export const affinityKind: EtcdKind<BlockAffinity, AffinityKey> = {
  what: 'affinity',
  ...wireKind('BlockAffinity', etcdKeyForAffinity, (a) => a.deleted),
  idOf: (a) => ({ host: a.host, type: a.type, cidr: a.cidr }),
  describe: (k) => `${k.type} affinity ${k.host}/${k.cidr}`,
  eventKey: (k) => `${k.type}/${k.host}/${k.cidr}`,
};

/** Where affinities matching `options` live; results still need `matchesAffinity`. */
export function affinityRanges(options: AffinityListOptions): KeyRange[] {
  return etcdAffinityPrefixes(options).map((start) => ({ start }));
}

export function matchesAffinity(a: BlockAffinity, options: AffinityListOptions): boolean {
  return (
    (options.host === undefined || a.host === options.host) &&
    (options.type === undefined || a.type === options.type) &&
    (options.ipVersion === undefined || ipVersionOfCidr(a.cidr) === options.ipVersion)
  );
}

export const handleKind: EtcdKind<IPAMHandle, string> = {
  what: 'handle',
  ...wireKind('IPAMHandle', etcdKeyForHandle, (h) => h.deleted),
  idOf: (h) => h.handleId,
  describe: (id) => `handle ${id}`,
  eventKey: (id) => id,
};

export const configKind: EtcdKind<IPAMConfig, 'default'> = {
  what: 'IPAM config',
  ...wireKind('IPAMConfig', (_id: 'default') => etcdKeyForIPAMConfig(), () => false),
  idOf: () => 'default',
  describe: () => 'IPAM config default',
  eventKey: () => 'default',
};

const named = (what: string) => ({ idOf: (v: { name: string }) => v.name, describe: (name: string) => `${what} ${name}`, eventKey: (name: string) => name });

export const poolKind: EtcdKind<IPPool, string> = { what: 'IPPool', ...wireKind('IPPool', etcdKeyForIPPool, () => false), ...named('IPPool') };

export const reservationKind: EtcdKind<IPReservation, string> = {
  what: 'IPReservation',
  ...wireKind('IPReservation', etcdKeyForIPReservation, () => false),
  ...named('IPReservation'),
};

export const nodeKind: EtcdKind<Node, string> = {
  what: 'Node',
  key: etcdKeyForNode,
  encode: (node) => encodeEtcdNode(node).value,
  decode: (key, value) => (targetOf(key)?.kind === 'Node' ? decodeEtcdNode(key, value) : undefined),
  softDeleted: () => false,
  ...named('Node'),
};

export const namespaceKind: EtcdKind<Namespace, string> = {
  what: 'Namespace',
  key: (name) => {
    if (name === '' || name.includes('/')) throw new ValidationError(`invalid Namespace name ${JSON.stringify(name)}`);
    return `${NAMESPACE_PREFIX}${name}`;
  },
  encode: encodeNamespace,
  decode: (key, value) => (key.startsWith(NAMESPACE_PREFIX) ? decodeNamespace(key, value) : undefined),
  softDeleted: () => false,
  ...named('Namespace'),
};

export function blockRanges(ipVersion?: IPVersion): KeyRange[] {
  return [{ start: etcdBlockPrefix(ipVersion) }];
}


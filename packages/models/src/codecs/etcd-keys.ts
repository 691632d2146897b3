import type { AffinityKey } from '../resources/block-affinity.js';
import type { AffinityType } from '../resources/allocation-block.js';
import type { IPVersion } from '../resources/intended-use.js';
import { ipVersionOfCidr } from '../net/cidr.js';
import { codecFail } from './field-readers.js';
import { cidrFromEtcdSegment, cidrToEtcdSegment, wireCidr } from './wire-cidr.js';

/** Calico's etcdv3 layout (design/calico-stored-formats.md#etcdv3-layout). All keys are absolute, without a custom prefix. */
export const ETCD_IPAM_ROOT = '/calico/ipam/v2/';
export const ETCD_BLOCK_PREFIX = '/calico/ipam/v2/assignment/';
export const ETCD_HANDLE_PREFIX = '/calico/ipam/v2/handle/';
export const ETCD_IPAM_CONFIG_KEY = '/calico/ipam/v2/config';
export const ETCD_IPPOOL_PREFIX = '/calico/resources/v3/projectcalico.org/ippools/';
export const ETCD_IPRESERVATION_PREFIX = '/calico/resources/v3/projectcalico.org/ipreservations/';
export const ETCD_NODE_PREFIX = '/calico/resources/v3/projectcalico.org/nodes/';

/** A key segment must be non-empty and free of `/`, or the key would parse back differently. */
function segment(text: string, what: string): string {
  if (text === '' || text.includes('/')) codecFail(what, `${JSON.stringify(text)} cannot be an etcd key segment`);
  return text;
}

export function etcdKeyForBlock(cidr: string): string {
  const canonical = wireCidr(cidr, 'cidr');
  return `${ETCD_BLOCK_PREFIX}ipv${ipVersionOfCidr(canonical)}/block/${cidrToEtcdSegment(canonical)}`;
}

export function etcdKeyForAffinity(key: AffinityKey): string {
  const canonical = wireCidr(key.cidr, 'cidr');
  return `${ETCD_IPAM_ROOT}${key.type}/${segment(key.host, 'host')}/ipv${ipVersionOfCidr(canonical)}/block/${cidrToEtcdSegment(canonical)}`;
}

/** The handle ID is used raw (case kept, no escaping), as Calico does. */
export function etcdKeyForHandle(handleId: string): string {
  if (handleId === '') codecFail('handleId', 'must not be empty');
  return `${ETCD_HANDLE_PREFIX}${handleId}`;
}

/** The legacy per-host marker `RemoveIPAMHost` deletes. */
export function etcdKeyForIPAMConfig(): string {
  return ETCD_IPAM_CONFIG_KEY;
}

export function etcdKeyForIPPool(name: string): string {
  return `${ETCD_IPPOOL_PREFIX}${segment(name, 'name')}`;
}

export function etcdKeyForIPReservation(name: string): string {
  return `${ETCD_IPRESERVATION_PREFIX}${segment(name, 'name')}`;
}

export function etcdKeyForNode(name: string): string {
  return `${ETCD_NODE_PREFIX}${segment(name, 'name')}`;
}

/** Prefix for listing blocks, optionally of one IP version. */
export function etcdBlockPrefix(ipVersion?: IPVersion): string {
  return ipVersion === undefined ? ETCD_BLOCK_PREFIX : `${ETCD_BLOCK_PREFIX}ipv${ipVersion}/`;
}

/**
 * Prefixes to scan for affinities. Unlike Calico (which lists only `host` affinities when no type is
 * given, design/calico-stored-formats.md#etcdv3-layout), no type means both types, as our AffinityStore promises. Without a host the IP version
 * cannot narrow the prefix: callers filter the decoded rows on `ipVersionOfCidr`.
 */
export function etcdAffinityPrefixes(options: { host?: string; type?: AffinityType; ipVersion?: IPVersion } = {}): string[] {
  const types: AffinityType[] = options.type === undefined ? ['host', 'virtual'] : [options.type];
  return types.map((type) => {
    if (options.host === undefined) return `${ETCD_IPAM_ROOT}${type}/`;
    const hostPrefix = `${ETCD_IPAM_ROOT}${type}/${segment(options.host, 'host')}/`;
    return options.ipVersion === undefined ? hostPrefix : `${hostPrefix}ipv${options.ipVersion}/block/`;
  });
}

/** What an etcd key names. */
export type EtcdKeyTarget =
  | { kind: 'IPAMBlock'; cidr: string }
  | { kind: 'BlockAffinity'; key: AffinityKey }
  | { kind: 'IPAMHandle'; handleId: string }
  | { kind: 'IPAMConfig' }
  | { kind: 'IPPool'; name: string }
  | { kind: 'IPReservation'; name: string }
  | { kind: 'Node'; name: string }
  | { kind: 'IPAMHost'; host: string };

const BLOCK_KEY = /^\/calico\/ipam\/v2\/assignment\/ipv([46])\/block\/([^/]+)$/;
// The type segment `@` is accepted as Calico's key regex does; it reads as `host`.
const AFFINITY_KEY = /^\/calico\/ipam\/v2\/(host|virtual|@)\/([^/]+)\/ipv([46])\/block\/([^/]+)$/;
const IPAM_HOST_KEY = /^\/calico\/ipam\/v2\/host\/([^/]+)$/;
const RESOURCE_KEY = /^\/calico\/resources\/v3\/projectcalico\.org\/(ippools|ipreservations|nodes)\/([^/]+)$/;

/** Parses a key of Calico's layout; anything else is a CodecError. */
export function parseEtcdKey(key: string): EtcdKeyTarget {
  if (key === ETCD_IPAM_CONFIG_KEY) return { kind: 'IPAMConfig' };
  if (key.startsWith(ETCD_HANDLE_PREFIX) && key.length > ETCD_HANDLE_PREFIX.length) {
    return { kind: 'IPAMHandle', handleId: key.slice(ETCD_HANDLE_PREFIX.length) };
  }
  const block = BLOCK_KEY.exec(key);
  if (block?.[1] !== undefined && block[2] !== undefined) {
    const cidr = cidrFromEtcdSegment(block[2], 'key');
    checkVersion(cidr, block[1], key);
    return { kind: 'IPAMBlock', cidr };
  }
  const affinity = AFFINITY_KEY.exec(key);
  if (affinity?.[1] !== undefined && affinity[2] !== undefined && affinity[3] !== undefined && affinity[4] !== undefined) {
    const cidr = cidrFromEtcdSegment(affinity[4], 'key');
    checkVersion(cidr, affinity[3], key);
    const type: AffinityType = affinity[1] === 'virtual' ? 'virtual' : 'host';
    return { kind: 'BlockAffinity', key: { host: affinity[2], type, cidr } };
  }
  const host = IPAM_HOST_KEY.exec(key);
  if (host?.[1] !== undefined) return { kind: 'IPAMHost', host: host[1] };
  const resource = RESOURCE_KEY.exec(key);
  if (resource?.[1] !== undefined && resource[2] !== undefined) {
    const kind = resource[1] === 'ippools' ? 'IPPool' : resource[1] === 'ipreservations' ? 'IPReservation' : 'Node';
    return { kind, name: resource[2] };
  }
  return codecFail('key', `${JSON.stringify(key)} is not a Calico IPAM etcd key`);
}

function checkVersion(cidr: string, version: string, key: string): void {
  if (String(ipVersionOfCidr(cidr)) !== version) codecFail('key', `${JSON.stringify(key)}: CIDR ${cidr} is not IPv${version}`);
}

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

/**
 * The layouts below, read segment by segment rather than by regular expressions (each cost a
 * short-lived process its compilation: design/models.md, "Addresses without regular expressions").
 * A `<name>` segment is any non-empty text without `/`.
 *
 * - `/calico/ipam/v2/assignment/ipv<4|6>/block/<cidr>`
 * - `/calico/ipam/v2/<host|virtual|@>/<host>/ipv<4|6>/block/<cidr>` (the type `@` is accepted as
 *   Calico's key expression does; it reads as `host`)
 * - `/calico/ipam/v2/host/<host>`
 * - `/calico/resources/v3/projectcalico.org/<ippools|ipreservations|nodes>/<name>`
 */
function ipamKeyTarget(parts: readonly string[], key: string): EtcdKeyTarget | undefined {
  if (parts.some((part, i) => i > 0 && part === '')) return undefined;
  const family = (segment: string | undefined): '4' | '6' | undefined => (segment === 'ipv4' ? '4' : segment === 'ipv6' ? '6' : undefined);
  if (parts.length === 8 && parts[4] === 'assignment' && parts[6] === 'block') {
    const version = family(parts[5]);
    if (version === undefined) return undefined;
    const cidr = cidrFromEtcdSegment(parts[7] ?? '', 'key');
    checkVersion(cidr, version, key);
    return { kind: 'IPAMBlock', cidr };
  }
  const type = parts[4];
  if (parts.length === 9 && (type === 'host' || type === 'virtual' || type === '@') && parts[7] === 'block') {
    const version = family(parts[6]);
    if (version === undefined) return undefined;
    const cidr = cidrFromEtcdSegment(parts[8] ?? '', 'key');
    checkVersion(cidr, version, key);
    return { kind: 'BlockAffinity', key: { host: parts[5] ?? '', type: type === 'virtual' ? 'virtual' : 'host', cidr } };
  }
  if (parts.length === 6 && type === 'host') return { kind: 'IPAMHost', host: parts[5] ?? '' };
  return undefined;
}

const RESOURCE_KINDS: Readonly<Record<string, 'IPPool' | 'IPReservation' | 'Node'>> = { ippools: 'IPPool', ipreservations: 'IPReservation', nodes: 'Node' };

/** Parses a key of Calico's layout; anything else is a CodecError. */
export function parseEtcdKey(key: string): EtcdKeyTarget {
  if (key === ETCD_IPAM_CONFIG_KEY) return { kind: 'IPAMConfig' };
  if (key.startsWith(ETCD_HANDLE_PREFIX) && key.length > ETCD_HANDLE_PREFIX.length) {
    return { kind: 'IPAMHandle', handleId: key.slice(ETCD_HANDLE_PREFIX.length) };
  }
  if (key.startsWith('/calico/ipam/v2/')) {
    const target = ipamKeyTarget(key.split('/'), key);
    if (target !== undefined) return target;
  } else if (key.startsWith('/calico/resources/v3/projectcalico.org/')) {
    const parts = key.split('/');
    const kind = Object.hasOwn(RESOURCE_KINDS, parts[5] ?? '') ? RESOURCE_KINDS[parts[5] ?? ''] : undefined;
    if (parts.length === 7 && kind !== undefined && parts[6] !== '') return { kind, name: parts[6] ?? '' };
  }
  return codecFail('key', `${JSON.stringify(key)} is not a Calico IPAM etcd key`);
}

function checkVersion(cidr: string, version: string, key: string): void {
  if (String(ipVersionOfCidr(cidr)) !== version) codecFail('key', `${JSON.stringify(key)}: CIDR ${cidr} is not IPv${version}`);
}

import { canonicalAddress, ipVersionOfAddress } from '@ipamkit/models';
import { echoInput, INPUT_LIMITS, requireMaxLength } from '../config/input-limits.js';
import { NetworkConfigError } from '../errors.js';

/** Calico's pod/namespace annotations (design/calico-callers.md#annotations). */
export const ANNOTATIONS = {
  ipv4Pools: 'cni.projectcalico.org/ipv4pools',
  ipv6Pools: 'cni.projectcalico.org/ipv6pools',
  ipFamilies: 'cni.projectcalico.org/ipFamilies',
  ipAddrs: 'cni.projectcalico.org/ipAddrs',
  ipAddrsNoIpam: 'cni.projectcalico.org/ipAddrsNoIpam',
} as const;

/**
 * A tenant writes annotations (up to 256 KB in all): the ones we parse are bounded before parsing,
 * and so is each entry (a pool name, a CIDR or an address), design/cni.md "Input limits".
 */
function annotationValue(annotations: Record<string, string>, key: string): string | undefined {
  const raw = annotations[key];
  return raw === undefined ? undefined : requireMaxLength(raw, INPUT_LIMITS.annotation, `annotation ${JSON.stringify(key)}`);
}

function jsonStringList(raw: string, what: string): string[] {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (err) {
    throw new NetworkConfigError(`failed to parse ${what} ${echoInput(raw)}: ${err instanceof Error ? echoInput(err.message) : 'not JSON'}`);
  }
  if (!Array.isArray(value) || !value.every((v): v is string => typeof v === 'string')) {
    throw new NetworkConfigError(`failed to parse ${what} ${echoInput(raw)}: expected a JSON list of strings`);
  }
  return value.map((entry) => requireMaxLength(entry, INPUT_LIMITS.listEntry, `an entry of ${what}`));
}

/** A pool-list annotation; an absent or empty one yields undefined (fall through to the next source). */
export function poolAnnotation(annotations: Record<string, string>, key: string): string[] | undefined {
  const raw = annotationValue(annotations, key);
  if (raw === undefined || raw.trim() === '') return undefined;
  const list = jsonStringList(raw, `annotation ${JSON.stringify(key)}`);
  return list.length === 0 ? undefined : list;
}

/** `ipFamilies`: which families to assign; each element exactly "IPv4" or "IPv6". */
export function familiesAnnotation(annotations: Record<string, string>): { v4: boolean; v6: boolean } | undefined {
  const raw = annotationValue(annotations, ANNOTATIONS.ipFamilies);
  if (raw === undefined || raw.trim() === '') return undefined;
  let list: string[];
  try {
    list = jsonStringList(raw, 'ipFamilies');
  } catch {
    throw new NetworkConfigError(`error parsing ipFamilies: ${echoInput(raw)}`);
  }
  const out = { v4: false, v6: false };
  for (const family of list) {
    if (family === 'IPv4') out.v4 = true;
    else if (family === 'IPv6') out.v6 = true;
    else throw new NetworkConfigError(`error parsing ipFamilies: ${echoInput(raw)}`);
  }
  return out;
}

/** `ipAddrs` / `ipAddrsNoIpam`: at most one address per family, canonicalised. */
export function addressAnnotation(annotations: Record<string, string>, key: string): string[] | undefined {
  const raw = annotationValue(annotations, key);
  if (raw === undefined) return undefined;
  const list = jsonStringList(raw, `IPs for annotation ${JSON.stringify(key)}:`);
  if (list.length === 0) throw new NetworkConfigError(`annotation ${JSON.stringify(key)} specified but empty`);
  return explicitAddresses(list, `${JSON.stringify(key)} annotation`);
}

/** Validates a list of explicit addresses (an optional `/prefix` is dropped): one per family at most. */
export function explicitAddresses(list: readonly string[], source: string): string[] {
  const seen = new Set<number>();
  return list.map((entry) => {
    const bare = entry.includes('/') ? entry.slice(0, entry.indexOf('/')) : entry;
    let ip: string;
    try {
      ip = canonicalAddress(bare);
    } catch {
      throw new NetworkConfigError(`invalid IP format: ${echoInput(entry)}`);
    }
    const version = ipVersionOfAddress(ip);
    if (seen.has(version)) throw new NetworkConfigError(`cannot have more than one IPv${version} address for ${source}`);
    seen.add(version);
    return ip;
  });
}

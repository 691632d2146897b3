import { NetworkConfigError } from '../errors.js';

/**
 * How long each input may be (design/cni.md, "Input limits"). Kubernetes names: a DNS subdomain
 * (253) for nodes and pods, a DNS label (63) for namespaces.
 */
export const INPUT_LIMITS = {
  nodeName: 253,
  podName: 253,
  namespace: 63,
  networkName: 253,
  containerId: 253,
  /** IFNAMSIZ - 1. */
  ifname: 15,
  cniVersion: 16,
  cniVersionsEntries: 32,
  /** A pool name or CIDR, an address. */
  listEntry: 253,
  /** PATH_MAX - 1. */
  path: 4095,
  /** Any other string of the network config. */
  netconfString: 4096,
  /** A bearer token (never echoed). */
  secret: 65_536,
  /** The value of an annotation the plugin parses (`ipAddrs`, `ipv4pools`, …). */
  annotation: 4096,
  /** The whole CNI_ARGS variable. */
  cniArgs: 8192,
} as const;

/** The most characters of any input an error message repeats. */
export const MAX_ECHO = 256;

/** An input as error messages quote it: at most MAX_ECHO characters of it, and its length when cut. */
export function echoInput(value: string): string {
  if (value.length <= MAX_ECHO) return value;
  return `${value.slice(0, MAX_ECHO)}… (${value.length} characters)`;
}

/**
 * Refuses a value longer than `max` with code 7, before it reaches the datastore or a log. A
 * secret is never quoted.
 */
export function requireMaxLength(value: string, max: number, what: string, options: { secret?: boolean } = {}): string {
  if (value.length <= max) return value;
  const quoted = options.secret === true ? '' : `: ${JSON.stringify(echoInput(value))}`;
  throw new NetworkConfigError(`${what} is longer than ${max} characters${quoted}`);
}

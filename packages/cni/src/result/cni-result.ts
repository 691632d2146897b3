import { ipVersionOfAddress } from '@ipamkit/models';
import type { CniVersion } from '../config/cni-version.js';
import type { RouteConfig } from '../config/net-config.js';
import type { CniError } from '../errors.js';

/** An IPAM result before it is rendered in a spec version (no interfaces: IPAM plugins omit them). */
export interface IpamResult {
  /** `<ip>/<prefix>`, host bits kept. */
  ips: { address: string; gateway?: string }[];
  routes: RouteConfig[];
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => [k, sortKeys(v)]));
  }
  return value;
}

/**
 * Renders the result as the Go library does (design/calico-callers.md#cni-results): 0.3.x/0.4.0 carry `version` per
 * IP and an always-present empty `dns`; 1.x sorts keys and drops empty `dns`. Indented by four
 * spaces, no trailing newline.
 */
export function renderResult(version: CniVersion, result: IpamResult): string {
  const routes = result.routes.map((r) => (r.gw === undefined ? { dst: r.dst } : { dst: r.dst, gw: r.gw }));
  if (version.startsWith('0.')) {
    const body: Record<string, unknown> = {
      cniVersion: version,
      ips: result.ips.map((ip) => ({ version: String(ipVersionOfAddress(ip.address.split('/')[0] ?? '')), address: ip.address, ...(ip.gateway === undefined ? {} : { gateway: ip.gateway }) })),
    };
    if (routes.length > 0) body.routes = routes;
    body.dns = {};
    return JSON.stringify(body, null, 4);
  }
  const body: Record<string, unknown> = { cniVersion: version, ips: result.ips.map((ip) => ({ ...ip })) };
  if (routes.length > 0) body.routes = routes;
  return JSON.stringify(sortKeys(body), null, 4);
}

/** The CNI error object (no cniVersion, as the Go library writes it); `details` only when non-empty. */
export function renderError(err: Pick<CniError, 'code' | 'message' | 'details'>): string {
  const body: Record<string, unknown> = { code: err.code, msg: err.message };
  if (err.details !== '') body.details = err.details;
  return JSON.stringify(body, null, 4);
}

export function renderVersion(supported: readonly string[], own: string): string {
  return `${JSON.stringify({ cniVersion: own, supportedVersions: supported })}\n`;
}

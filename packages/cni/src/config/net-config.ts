import { canonicalAddress, canonicalCidr, definedFields, isRecord } from '@ipamkit/models';
import { CniDecodeError, messageOf, NetworkConfigError } from '../errors.js';
import { negotiateVersion, type CniVersion } from './cni-version.js';
import { echoInput, INPUT_LIMITS } from './input-limits.js';
import { optionalBoolean, optionalNumber, optionalObject, optionalString, stringList, type JsonObject } from './json-fields.js';
import { isNetworkName } from './name-chars.js';

export interface IpamSection {
  type?: string;
  /** Calico types these as strings: IPv4 unless exactly "false", IPv6 only if exactly "true". */
  assignIpv4?: string;
  assignIpv6?: string;
  ipv4Pools: string[];
  ipv6Pools: string[];
  /** ipamkit addition for non-Calico main plugins (design/cni.md, "Results"). */
  routes?: RouteConfig[];
  gateways: string[];
  /** `ipam.timeout_seconds`: the budget of one call, lock wait included (design/cni.md, "Deadline"). */
  timeoutSeconds?: number;
}

export interface RouteConfig {
  dst: string;
  gw?: string;
}

export interface Attachment {
  containerID: string;
  ifname: string;
}

/** The network config as calico-ipam reads it (design/calico-callers.md#network-config), plus ipamkit's sqlite keys. */
export interface NetConf {
  cniVersion: CniVersion;
  name: string;
  ipam: IpamSection;
  nodename?: string;
  nodenameFile?: string;
  hostname?: string;
  ipamLockFile?: string;
  datastoreType?: string;
  sqlitePath?: string;
  etcd: { endpoints?: string; authority?: string; scheme?: string; discoverySrv?: string; keyFile?: string; certFile?: string; caCertFile?: string; prefix?: string };
  kubernetes: { kubeconfig?: string; k8sApiRoot?: string };
  policy: { type?: string; k8sApiRoot?: string; k8sAuthToken?: string; k8sClientCertificate?: string; k8sClientKey?: string; k8sCertificateAuthority?: string };
  calicoApiGroup?: string;
  featureControl: { ipAddrsNoIpam: boolean };
  windowsUseSingleNetwork: boolean;
  logLevel?: string;
  logFilePath?: string;
  /** The standard `ips` capability. */
  runtimeIps: string[];
  prevResult?: JsonObject;
  /** GC (1.1): attachments the runtime still uses; undefined when the key is absent. */
  validAttachments?: Attachment[];
}

/** A node runs at most a few hundred containers; GC's list of live ones is bounded well above that. */
const MAX_ATTACHMENTS = 65_536;
const PATH = { max: INPUT_LIMITS.path };

/** Longest budget `ipam.timeout_seconds` may set: one hour. */
const MAX_TIMEOUT_SECONDS = 3600;

function timeoutOf(ipam: JsonObject): number | undefined {
  const seconds = optionalNumber(ipam, 'timeout_seconds', 'ipam.timeout_seconds');
  if (seconds !== undefined && !(seconds > 0 && seconds <= MAX_TIMEOUT_SECONDS)) {
    throw new NetworkConfigError(`failed to load netconf: ipam.timeout_seconds must be more than 0 and at most ${MAX_TIMEOUT_SECONDS}`);
  }
  return seconds;
}

/** prevResult is only read for its addresses (CHECK); bound them here, where the config is parsed. */
function checkPrevResult(prev: unknown): JsonObject | undefined {
  if (prev === undefined || prev === null) return undefined;
  if (!isRecord(prev)) throw new NetworkConfigError('failed to load netconf: prevResult must be an object');
  const ips = prev.ips;
  if (Array.isArray(ips)) {
    ips.forEach((entry, i) => {
      if (isRecord(entry)) optionalString(entry, 'address', `prevResult.ips[${i}].address`, { max: INPUT_LIMITS.listEntry });
    });
  }
  return prev;
}

function checked(parse: () => unknown, message: string): void {
  try {
    parse();
  } catch {
    throw new NetworkConfigError(`failed to load netconf: ${message}`);
  }
}

function routesOf(ipam: JsonObject): RouteConfig[] | undefined {
  const raw = ipam.routes;
  if (raw === undefined || raw === null) return undefined;
  if (!Array.isArray(raw)) throw new NetworkConfigError('failed to load netconf: ipam.routes must be a list');
  return raw.map((r, i) => {
    if (!isRecord(r)) throw new NetworkConfigError(`failed to load netconf: ipam.routes[${i}] must be an object`);
    const dst = optionalString(r, 'dst', `ipam.routes[${i}].dst`);
    if (dst === undefined) throw new NetworkConfigError(`failed to load netconf: ipam.routes[${i}].dst is required`);
    const gw = optionalString(r, 'gw', `ipam.routes[${i}].gw`);
    checked(() => canonicalCidr(dst), `ipam.routes[${i}].dst is not a CIDR: ${echoInput(dst)}`);
    if (gw !== undefined) checked(() => canonicalAddress(gw), `ipam.routes[${i}].gw is not an IP address: ${echoInput(gw)}`);
    return gw === undefined ? { dst } : { dst, gw };
  });
}

function attachmentsOf(conf: JsonObject): Attachment[] | undefined {
  // The 1.1.0 tag named the key cni.dev/attachments; later text and the Go library use valid-attachments.
  const key = 'cni.dev/valid-attachments' in conf ? 'cni.dev/valid-attachments' : 'cni.dev/attachments';
  const raw = conf[key];
  if (raw === undefined || raw === null) return undefined;
  if (!Array.isArray(raw)) throw new NetworkConfigError(`failed to load netconf: ${key} must be a list`);
  if (raw.length > MAX_ATTACHMENTS) throw new NetworkConfigError(`failed to load netconf: ${key} has more than ${MAX_ATTACHMENTS} entries`);
  return raw.map((a, i) => {
    if (!isRecord(a)) throw new NetworkConfigError(`failed to load netconf: ${key}[${i}] must be an object`);
    return {
      containerID: optionalString(a, 'containerID', `${key}[${i}].containerID`, { max: INPUT_LIMITS.containerId }) ?? '',
      ifname: optionalString(a, 'ifname', `${key}[${i}].ifname`, { max: INPUT_LIMITS.ifname }) ?? '',
    };
  });
}

/** Parses stdin into a NetConf. Not JSON → code 6; wrong shape → code 7; version → code 1. */
export function parseNetConf(stdin: string): NetConf {
  let raw: unknown;
  try {
    raw = JSON.parse(stdin);
  } catch (err) {
    throw new CniDecodeError(`error unmarshall network config: ${messageOf(err)}`);
  }
  if (!isRecord(raw)) throw new CniDecodeError('error unmarshall network config: the config must be a JSON object');
  const name = optionalString(raw, 'name', 'name', { max: INPUT_LIMITS.networkName }) ?? '';
  if (name === '') throw new NetworkConfigError('missing network name');
  if (!isNetworkName(name)) {
    throw new NetworkConfigError('invalid characters detected in the given network name. Only letters a-z, numbers 0-9, and symbols _.- are supported');
  }
  const versions = { max: INPUT_LIMITS.cniVersion };
  const cniVersion = negotiateVersion(optionalString(raw, 'cniVersion', 'cniVersion', versions), stringList(raw, 'cniVersions', 'cniVersions', { ...versions, entries: INPUT_LIMITS.cniVersionsEntries }));
  const ipamRaw = optionalObject(raw, 'ipam');
  const kube = optionalObject(raw, 'kubernetes');
  const policy = optionalObject(raw, 'policy');
  const features = optionalObject(raw, 'feature_control');
  const runtime = optionalObject(raw, 'runtimeConfig');
  const prev = checkPrevResult(raw.prevResult);
  const routes = routesOf(ipamRaw);
  const validAttachments = attachmentsOf(raw);
  const gateways = stringList(ipamRaw, 'gateways', 'ipam.gateways');
  gateways.forEach((g, i) => checked(() => canonicalAddress(g), `ipam.gateways[${i}] is not an IP address: ${echoInput(g)}`));
  optionalNumber(raw, 'qps');
  optionalNumber(raw, 'burst');
  return definedFields({
    cniVersion,
    name,
    ipam: definedFields({
      type: optionalString(ipamRaw, 'type', 'ipam.type'),
      assignIpv4: optionalString(ipamRaw, 'assign_ipv4', 'ipam.assign_ipv4'),
      assignIpv6: optionalString(ipamRaw, 'assign_ipv6', 'ipam.assign_ipv6'),
      ipv4Pools: stringList(ipamRaw, 'ipv4_pools', 'ipam.ipv4_pools'),
      ipv6Pools: stringList(ipamRaw, 'ipv6_pools', 'ipam.ipv6_pools'),
      routes,
      gateways,
      timeoutSeconds: timeoutOf(ipamRaw),
    }),
    nodename: optionalString(raw, 'nodename', 'nodename', { max: INPUT_LIMITS.nodeName }),
    nodenameFile: optionalString(raw, 'nodename_file', 'nodename_file', PATH),
    hostname: optionalString(raw, 'hostname', 'hostname', { max: INPUT_LIMITS.nodeName }),
    ipamLockFile: optionalString(raw, 'ipam_lock_file', 'ipam_lock_file', PATH),
    datastoreType: optionalString(raw, 'datastore_type'),
    sqlitePath: optionalString(raw, 'sqlite_path', 'sqlite_path', PATH),
    etcd: definedFields({
      endpoints: optionalString(raw, 'etcd_endpoints'),
      authority: optionalString(raw, 'etcd_authority'),
      scheme: optionalString(raw, 'etcd_scheme'),
      discoverySrv: optionalString(raw, 'etcd_discovery_srv'),
      keyFile: optionalString(raw, 'etcd_key_file', 'etcd_key_file', PATH),
      certFile: optionalString(raw, 'etcd_cert_file', 'etcd_cert_file', PATH),
      caCertFile: optionalString(raw, 'etcd_ca_cert_file', 'etcd_ca_cert_file', PATH),
      prefix: optionalString(raw, 'etcd_prefix'),
    }),
    kubernetes: definedFields({
      kubeconfig: optionalString(kube, 'kubeconfig', 'kubernetes.kubeconfig', PATH),
      k8sApiRoot: optionalString(kube, 'k8s_api_root', 'kubernetes.k8s_api_root'),
    }),
    policy: definedFields({
      type: optionalString(policy, 'type', 'policy.type'),
      k8sApiRoot: optionalString(policy, 'k8s_api_root', 'policy.k8s_api_root'),
      k8sAuthToken: optionalString(policy, 'k8s_auth_token', 'policy.k8s_auth_token', { max: INPUT_LIMITS.secret, secret: true }),
      k8sClientCertificate: optionalString(policy, 'k8s_client_certificate', 'policy.k8s_client_certificate', PATH),
      k8sClientKey: optionalString(policy, 'k8s_client_key', 'policy.k8s_client_key', PATH),
      k8sCertificateAuthority: optionalString(policy, 'k8s_certificate_authority', 'policy.k8s_certificate_authority', PATH),
    }),
    calicoApiGroup: optionalString(raw, 'calico_api_group'),
    featureControl: { ipAddrsNoIpam: optionalBoolean(features, 'ip_addrs_no_ipam', 'feature_control.ip_addrs_no_ipam') ?? false },
    windowsUseSingleNetwork: optionalBoolean(raw, 'windows_use_single_network') ?? false,
    logLevel: optionalString(raw, 'log_level'),
    logFilePath: optionalString(raw, 'log_file_path', 'log_file_path', PATH),
    runtimeIps: stringList(runtime, 'ips', 'runtimeConfig.ips'),
    prevResult: isRecord(prev) ? prev : undefined,
    validAttachments,
  });
}

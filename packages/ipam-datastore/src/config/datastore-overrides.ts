/**
 * What a caller's own flags or network config say about the datastore (design/ipam-datastore.md,
 * "Configuration"). Each field, when set and non-empty, wins over its environment variable; an
 * empty string counts as unset, as Calico's tools treat it.
 */
export interface DatastoreOverrides {
  /** `etcdv3`, `kubernetes`, `sqlite` or `memory`. */
  readonly datastoreType?: string;
  /** Comma-separated `http://` or `https://` URLs, without user info. */
  readonly etcdEndpoints?: string;
  /** `host:port`, used with `etcdScheme` when there are no endpoints. */
  readonly etcdAuthority?: string;
  readonly etcdScheme?: string;
  /** Calico's DNS SRV discovery: refused, ipamkit does not implement it. */
  readonly etcdDiscoverySrv?: string;
  readonly etcdCaCertFile?: string;
  readonly etcdCertFile?: string;
  readonly etcdKeyFile?: string;
  readonly etcdUsername?: string;
  /** Callers whose flags are visible in `ps` leave this to the environment. */
  readonly etcdPassword?: string;
  readonly etcdPrefix?: string;
  readonly sqlitePath?: string;
  readonly kubeconfig?: string;
  /** `crd.projectcalico.org/v1` (default) or `projectcalico.org/v3`, case-insensitive. */
  readonly apiGroup?: string;
}

export type DatastoreSetting = keyof DatastoreOverrides;

/** The name a caller shows for each of its overrides (a flag or a netconf key), for error messages. */
export type OverrideNames = Readonly<Partial<Record<DatastoreSetting, string>>>;

/** Calico's environment variable for each setting (ipamkit's own ones carry the IPAMKIT_ prefix). */
export const DATASTORE_ENV_NAMES: Readonly<Record<DatastoreSetting, string>> = {
  datastoreType: 'DATASTORE_TYPE',
  etcdEndpoints: 'ETCD_ENDPOINTS',
  etcdAuthority: 'ETCD_AUTHORITY',
  etcdScheme: 'ETCD_SCHEME',
  etcdDiscoverySrv: 'ETCD_DISCOVERY_SRV',
  etcdCaCertFile: 'ETCD_CA_CERT_FILE',
  etcdCertFile: 'ETCD_CERT_FILE',
  etcdKeyFile: 'ETCD_KEY_FILE',
  etcdUsername: 'ETCD_USERNAME',
  etcdPassword: 'ETCD_PASSWORD',
  etcdPrefix: 'IPAMKIT_ETCD_PREFIX',
  sqlitePath: 'IPAMKIT_SQLITE_PATH',
  kubeconfig: 'KUBECONFIG',
  apiGroup: 'CALICO_API_GROUP',
};

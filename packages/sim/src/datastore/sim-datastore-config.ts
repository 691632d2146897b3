import { resolveDatastoreConfig, type DatastoreConfig } from '@ipamkit/ipam-datastore';
import { definedFields } from '@ipamkit/models';
import type { SimDatastoreType } from '../run/run-options.js';

/** What `ipamkit-sim run` knows about its datastore when it opens it. */
export interface SimDatastoreFlags {
  readonly datastore: SimDatastoreType;
  /** The SQLite file (`--sqlite-path`, or one in the run's temporary directory). */
  readonly sqlitePath?: string;
  /** `--etcd-endpoints`, or the etcd the sim started. */
  readonly etcdEndpoints?: readonly string[];
  /** The run's own key prefix, so runs against a shared etcd never meet. */
  readonly etcdPrefix?: string;
}

/**
 * The sim's flags as overrides of the shared resolver (design/sim.md, "Datastore configuration"):
 * the type and location always come from the sim; TLS files and etcd credentials come from the
 * environment (`ETCD_CA_CERT_FILE`, `ETCD_USERNAME`, `ETCD_PASSWORD`, …), as for every bin. The
 * caller passes an empty environment for the etcd it started itself, which has no TLS or auth.
 */
export function simDatastoreConfig(flags: SimDatastoreFlags, env: Readonly<Record<string, string | undefined>>): DatastoreConfig {
  const names = { datastoreType: '--datastore', sqlitePath: '--sqlite-path', etcdEndpoints: '--etcd-endpoints' };
  if (flags.datastore === 'sqlite') return resolveDatastoreConfig(env, definedFields({ datastoreType: 'sqlite', sqlitePath: flags.sqlitePath }), names);
  const etcd = { datastoreType: 'etcdv3', etcdEndpoints: flags.etcdEndpoints?.join(','), etcdPrefix: flags.etcdPrefix };
  return resolveDatastoreConfig(env, definedFields(etcd), names);
}

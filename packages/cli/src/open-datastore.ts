import { createDatastore, resolveDatastoreConfig, type DatastoreConfig, type DatastoreOverrides, type OverrideNames } from '@ipamkit/ipam-datastore';
import type { Datastore } from '@ipamkit/models';
import { configForAccess, type DatastoreAccess } from './resources/datastore-access.js';

/**
 * The global datastore flags (design/cli.md, "Datastore configuration"); unset ones fall back to the
 * environment (DATASTORE_TYPE and friends) through the one resolver in @ipamkit/ipam-datastore.
 * There is deliberately no password flag: a flag shows in `ps`, so ETCD_PASSWORD is the only way.
 */
export interface DatastoreFlags {
  readonly datastore?: string;
  readonly sqlitePath?: string;
  readonly etcdEndpoints?: string;
  readonly etcdCaCertFile?: string;
  readonly etcdCertFile?: string;
  readonly etcdKeyFile?: string;
  readonly etcdUsername?: string;
  readonly etcdPrefix?: string;
  readonly kubeconfig?: string;
}

/** The flag behind each override, so a resolution error names the flag at fault. */
export const CLI_DATASTORE_FLAGS: OverrideNames = {
  datastoreType: '--datastore',
  sqlitePath: '--sqlite-path',
  etcdEndpoints: '--etcd-endpoints',
  etcdCaCertFile: '--etcd-ca-cert-file',
  etcdCertFile: '--etcd-cert-file',
  etcdKeyFile: '--etcd-key-file',
  etcdUsername: '--etcd-username',
  etcdPrefix: '--etcd-prefix',
  kubeconfig: '--kubeconfig',
};

/** The flags as resolver overrides; `--datastore etcd` is the CLI's long-standing spelling of etcdv3. */
export function cliDatastoreOverrides(flags: DatastoreFlags): DatastoreOverrides {
  const { datastore, ...rest } = flags;
  const datastoreType = datastore === 'etcd' ? 'etcdv3' : datastore;
  return Object.fromEntries(
    Object.entries({ ...rest, datastoreType }).filter(([, v]) => v !== undefined),
  );
}

/** Flags + environment → config, through the shared resolver. Pure, for testing. */
export function datastoreConfigFromFlags(flags: DatastoreFlags, env: NodeJS.ProcessEnv): DatastoreConfig {
  return resolveDatastoreConfig(env, cliDatastoreOverrides(flags), CLI_DATASTORE_FLAGS);
}

export async function openDatastore(flags: DatastoreFlags, env: NodeJS.ProcessEnv, access: DatastoreAccess = 'may-create'): Promise<Datastore> {
  const config = datastoreConfigFromFlags(flags, env);
  // design/cli.md "Opening the datastore": only create and apply may make a new SQLite file.
  return createDatastore(access === 'may-create' ? config : configForAccess(config, access));
}

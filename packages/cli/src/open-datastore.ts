import { createDatastore, DatastoreConfigError, resolveDatastoreConfig, type DatastoreConfig, type DatastoreOverrides, type OverrideNames } from '@ipamkit/ipam-datastore';
import { definedFields, type Datastore } from '@ipamkit/models';
import type { DatastoreAccess } from './resources/datastore-access.js';
import { checkSqlitePresence } from './sqlite-presence.js';

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
  return definedFields({ ...rest, datastoreType });
}

/** Flags + environment → config, through the shared resolver. Pure, for testing. */
export function datastoreConfigFromFlags(flags: DatastoreFlags, env: NodeJS.ProcessEnv): DatastoreConfig {
  return resolveDatastoreConfig(env, cliDatastoreOverrides(flags), CLI_DATASTORE_FLAGS);
}

/**
 * Opens the configured datastore as `access` allows (design/cli.md "Opening the datastore"): a
 * missing SQLite file is refused with `DatastoreMissingError` unless the command may create one.
 */
export async function openDatastore(flags: DatastoreFlags, env: NodeJS.ProcessEnv, access: DatastoreAccess = 'may-create'): Promise<Datastore> {
  const config = configOrExplain(flags, env);
  if (config.type === 'sqlite' && config.path !== '') checkSqlitePresence(config.path, access);
  const chosen = flags.datastore !== undefined || nonEmpty(env['DATASTORE_TYPE']) || config.type !== 'kubernetes';
  try {
    // checkSqlitePresence above refused a missing file for the commands that must not create one.
    return await createDatastore(config.type === 'sqlite' && access === 'read-only' ? { ...config, readonly: true } : config);
  } catch (err) {
    // Nothing named a datastore and the kubernetes default found no cluster: say how to choose one.
    if (!chosen && err instanceof DatastoreConfigError) {
      throw new DatastoreConfigError(`no datastore configured: choose one with --datastore (etcd, kubernetes, sqlite) or DATASTORE_TYPE; the default, kubernetes, failed: ${err.message}`, { cause: err });
    }
    throw err;
  }
}

const nonEmpty = (v: string | undefined): boolean => v !== undefined && v !== '';

/** The resolver's config; an unknown DATASTORE_TYPE also names the flag that overrides it. */
function configOrExplain(flags: DatastoreFlags, env: NodeJS.ProcessEnv): DatastoreConfig {
  try {
    return datastoreConfigFromFlags(flags, env);
  } catch (err) {
    if (err instanceof DatastoreConfigError && flags.datastore === undefined && err.message.startsWith('DATASTORE_TYPE ')) {
      throw new DatastoreConfigError(`${err.message} (or choose with --datastore)`, { cause: err });
    }
    throw err;
  }
}

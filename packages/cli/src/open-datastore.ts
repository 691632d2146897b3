import { createDatastore, datastoreConfigFromEnv, datastoreFromEnv, type DatastoreConfig } from '@ipamkit/ipam-datastore';
import type { Datastore } from '@ipamkit/models';
import { CliUsageError } from './errors.js';
import { configForAccess, type DatastoreAccess } from './resources/datastore-access.js';

/** The global datastore flags; unset ones fall back to the environment (DATASTORE_TYPE and friends). */
export interface DatastoreFlags {
  readonly datastore?: string;
  readonly sqlitePath?: string;
  readonly etcdEndpoints?: string;
  readonly kubeconfig?: string;
}

/** Flags → config, or undefined when no `--datastore` was given. Pure, for testing. */
export function datastoreConfigFromFlags(flags: DatastoreFlags): DatastoreConfig | undefined {
  switch (flags.datastore) {
    case undefined:
      return undefined;
    case 'memory':
      return { type: 'memory' };
    case 'sqlite':
      if ((flags.sqlitePath ?? '') === '') throw new CliUsageError('--datastore sqlite needs --sqlite-path');
      return { type: 'sqlite', path: flags.sqlitePath ?? '' };
    case 'etcd':
    case 'etcdv3': {
      const endpoints = (flags.etcdEndpoints ?? '').split(',').map((e) => e.trim()).filter((e) => e !== '');
      if (endpoints.length === 0) throw new CliUsageError('--datastore etcd needs --etcd-endpoints');
      return { type: 'etcd', endpoints };
    }
    case 'kubernetes':
      return flags.kubeconfig === undefined ? { type: 'kubernetes' } : { type: 'kubernetes', kubeconfig: flags.kubeconfig };
    default:
      throw new CliUsageError(`--datastore must be one of sqlite, etcd, kubernetes, memory; got ${JSON.stringify(flags.datastore)}`);
  }
}

export async function openDatastore(flags: DatastoreFlags, env: NodeJS.ProcessEnv, access: DatastoreAccess = 'may-create'): Promise<Datastore> {
  const config = datastoreConfigFromFlags(flags);
  // design/cli.md "Opening the datastore": only create and apply may make a new SQLite file.
  if (access !== 'may-create') return createDatastore(configForAccess(config ?? datastoreConfigFromEnv(env), access));
  return config === undefined ? datastoreFromEnv(env) : createDatastore(config);
}

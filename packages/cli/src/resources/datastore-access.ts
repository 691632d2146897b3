import { statSync } from 'node:fs';
import type { DatastoreConfig } from '@ipamkit/ipam-datastore';
import { CliUsageError } from '../errors.js';

/**
 * How a command may open the datastore (design/cli.md "Opening the datastore"): `may-create` makes a
 * missing SQLite file (create, apply), `must-exist` writes to an existing one only (replace, delete),
 * `read-only` opens an existing one read-only (get).
 */
export type DatastoreAccess = 'may-create' | 'must-exist' | 'read-only';

/** The config to open for `access`; a missing SQLite file is refused here, before anything is created. */
export function configForAccess(config: DatastoreConfig, access: DatastoreAccess): DatastoreConfig {
  if (config.type !== 'sqlite' || access === 'may-create') return config;
  let exists: boolean;
  try {
    exists = statSync(config.path).isFile();
  } catch {
    exists = false;
  }
  if (!exists) throw new CliUsageError(`no ipamkit database at ${config.path} (only create and apply make a new one)`);
  return access === 'read-only' ? { ...config, readonly: true } : config;
}

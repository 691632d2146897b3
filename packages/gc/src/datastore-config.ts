import { resolveDatastoreConfig, type DatastoreConfig } from '@ipamkit/ipam-datastore';

/**
 * The datastore the garbage collector opens (design/gc.md, "Datastore configuration"): it has no datastore
 * flags of its own, so this is the shared resolver on the environment alone. Pure, for testing.
 */
export function gcDatastoreConfig(env: Readonly<Record<string, string | undefined>>): DatastoreConfig {
  return resolveDatastoreConfig(env, {});
}

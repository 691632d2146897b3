import { resolveDatastoreConfig, type DatastoreConfig } from '@ipamkit/ipam-datastore';

/**
 * The datastore the tunnel allocator opens (design/tunnel-alloc.md, "Datastore configuration"): it
 * has no datastore flags of its own, so this is the shared resolver on the environment alone.
 * Pure, for testing.
 */
export function tunnelDatastoreConfig(env: Readonly<Record<string, string | undefined>>): DatastoreConfig {
  return resolveDatastoreConfig(env, {});
}

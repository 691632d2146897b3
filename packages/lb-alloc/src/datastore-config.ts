import { resolveDatastoreConfig, type DatastoreConfig } from '@ipamkit/ipam-datastore';

/**
 * The datastore the LoadBalancer controller opens (design/lb-alloc.md, "Datastore configuration"): it has no datastore
 * flags of its own, so this is the shared resolver on the environment alone. Pure, for testing.
 */
export function lbDatastoreConfig(env: Readonly<Record<string, string | undefined>>): DatastoreConfig {
  return resolveDatastoreConfig(env, {});
}

import {
  AFFINITY_HOSTNAME_HASH_LABEL,
  AFFINITY_IP_VERSION_LABEL,
  AFFINITY_TYPE_LABEL,
  blockAffinityName,
  canonicalCidr,
  hostnameHashLabel,
  type AffinityListOptions,
  type AffinityStore,
  type BlockAffinity,
  type Versioned,
} from '@ipamkit/models';
import { CrdModelStore, type ModelBinding } from './crd-model-store.js';

/** The label selector of a host-scoped list (design/calico-stored-formats.md#host-scoped-listing); undefined lists everything. */
export function affinitySelector(options: AffinityListOptions): string | undefined {
  const terms: string[] = [];
  if (options.host !== undefined) terms.push(`${AFFINITY_HOSTNAME_HASH_LABEL}=${hostnameHashLabel(options.host)}`);
  if (options.type !== undefined) terms.push(`${AFFINITY_TYPE_LABEL}=${options.type}`);
  if (options.ipVersion !== undefined) terms.push(`${AFFINITY_IP_VERSION_LABEL}=${options.ipVersion}`);
  return terms.length === 0 ? undefined : terms.join(',');
}

/** The client-side half of design/calico-stored-formats.md#host-scoped-listing: exact host, type and family, whatever the labels said. */
export function matchesAffinityOptions(a: BlockAffinity, options: AffinityListOptions): boolean {
  return (
    (options.host === undefined || a.host === options.host) &&
    (options.type === undefined || a.type === options.type) &&
    (options.ipVersion === undefined || (a.cidr.includes(':') ? 6 : 4) === options.ipVersion)
  );
}

export interface KubernetesAffinityStore extends AffinityStore {
  /** Stamps the three labels on `host`'s rows that lack them (design/calico-stored-formats.md#upgradehost), by CAS. */
  upgradeHost(host: string): Promise<void>;
}

export function kubernetesAffinityStore(binding: ModelBinding<BlockAffinity>): KubernetesAffinityStore {
  const store = new CrdModelStore(binding);
  return {
    get: (key) => {
      const cidr = canonicalCidr(key.cidr);
      return store.get(blockAffinityName(key.host, cidr), (a) => a.host === key.host && a.type === key.type && a.cidr === cidr);
    },
    async list(options: AffinityListOptions = {}): Promise<Versioned<BlockAffinity>[]> {
      const rows = await store.list(affinitySelector(options));
      return rows.filter((a) => matchesAffinityOptions(a, options));
    },
    create: (a) => store.create(a),
    update: (a) => store.update(a),
    delete: (a) => store.deleteVersioned(a),
    listWithRevision: () => store.listWithRevision(),
    watch: (options) => store.watch(options),
    async upgradeHost(host: string): Promise<void> {
      // Only the host's own rows: every node upgrading every row would contend N×N.
      const unlabelled = await store.list(`!${AFFINITY_TYPE_LABEL}`);
      const errors: unknown[] = [];
      for (const row of unlabelled.filter((a) => a.host === host)) {
        // The codec stamps the labels on every write, so a plain CAS update back-fills them.
        await store.update(row).catch((err: unknown) => errors.push(err));
      }
      if (errors.length > 0) throw errors[0];
    },
  };
}

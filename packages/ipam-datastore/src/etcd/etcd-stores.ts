import {
  CodecError,
  canonicalCidr,
  type AffinityStore,
  type AllocationBlock,
  type BlockOrdinals,
  type BlockPageOptions,
  type BlockStore,
  type Datastore,
  type HandleStore,
  type IpamConfigStore,
  type ResourceStore,
} from '@ipamkit/models';
import { blockOrdinalsOf } from '../engine/block-ordinals.js';
import { pageLimit } from '../page-limit.js';
import type { EtcdKv, RawKv } from './etcd-kv.js';
import {
  ALL_AFFINITIES,
  HANDLE_PREFIX,
  NAMESPACE_PREFIX,
  NODE_PREFIX,
  POOL_PREFIX,
  RESERVATION_PREFIX,
  affinityKind,
  affinityRanges,
  blockKind,
  blockRanges,
  configKind,
  handleKind,
  matchesAffinity,
  namespaceKind,
  nodeKind,
  poolKind,
  reservationKind,
  type EtcdKind,
} from './etcd-layout.js';
import { EtcdStore } from './etcd-store.js';

/** The stores of a `Datastore`, over one etcd client. */
export type EtcdStores = Pick<Datastore, 'ipPools' | 'ipReservations' | 'nodes' | 'namespaces' | 'blocks' | 'affinities' | 'handles' | 'ipamConfig'>;

function resourceStore<T extends { name: string }>(kv: EtcdKv, kind: EtcdKind<T, string>, prefix: string): ResourceStore<T> {
  const store = new EtcdStore(kv, kind);
  const range = { start: prefix };
  return {
    create: (obj) => store.create(obj),
    get: (name) => store.get(name),
    list: () => store.list([range]),
    update: (obj) => store.update(obj),
    delete: (name, revision) => store.delete(name, revision),
    listWithRevision: () => store.listWithRevision([range]),
    watch: (options) => store.watch(range, options),
  };
}

/** One page of the blocks `options` select (one key range per IP version or for both). */
async function blockPage<I>(
  store: EtcdStore<AllocationBlock, string>,
  options: BlockPageOptions,
  read: (raw: RawKv) => I | undefined,
): Promise<{ items: I[]; continue?: string }> {
  const [range] = blockRanges(options.ipVersion);
  if (range === undefined) return { items: [] };
  return await store.page(range, pageLimit(options.limit), options.continue, read);
}

/**
 * A block's ordinals from Calico's JSON with the native parser: the lossless one is for the
 * sequence numbers, which this read leaves out. A soft-deleted block is left out; a value that is
 * not a block is a CodecError naming the key.
 */
function etcdBlockOrdinals(raw: RawKv): BlockOrdinals | undefined {
  let value: unknown;
  try {
    value = JSON.parse(raw.value);
  } catch {
    throw new CodecError(`block ${raw.key}: stored value is not JSON`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new CodecError(`block ${raw.key}: stored value is not an object`);
  const fields = value as Record<string, unknown>;
  if (fields.deleted === true) return undefined;
  const ordinals = blockOrdinalsOf(raw.key, fields);
  return { ...ordinals, cidr: canonicalCidr(ordinals.cidr) };
}

/** Every store of the Datastore interface over one key-value view (live, or a snapshot). */
export function etcdStores(kv: EtcdKv): EtcdStores {
  const blockStore = new EtcdStore(kv, blockKind);
  const allBlocks = { start: blockRanges()[0]?.start ?? '' };
  const blocks: BlockStore = {
    get: (cidr) => blockStore.get(cidr),
    list: (options = {}) => blockStore.list(blockRanges(options.ipVersion)),
    listPage: (options) => blockPage(blockStore, options, (raw) => blockStore.versioned(raw)),
    listOrdinalsPage: (options) => blockPage(blockStore, options, etcdBlockOrdinals),
    create: (block) => blockStore.create(block),
    update: (block) => blockStore.update(block),
    delete: (block) => blockStore.delete(block.cidr, block.revision),
    listWithRevision: () => blockStore.listWithRevision([allBlocks]),
    watch: (options) => blockStore.watch(allBlocks, options),
  };

  const affinityStore = new EtcdStore(kv, affinityKind);
  const affinities: AffinityStore = {
    get: (key) => affinityStore.get(key),
    list: (options = {}) => affinityStore.list(affinityRanges(options), (a) => matchesAffinity(a, options)),
    create: (affinity) => affinityStore.create(affinity),
    update: (affinity) => affinityStore.update(affinity),
    delete: (affinity) => affinityStore.delete(affinityKind.idOf(affinity), affinity.revision),
    listWithRevision: () => affinityStore.listWithRevision([ALL_AFFINITIES]),
    watch: (options) => affinityStore.watch(ALL_AFFINITIES, options),
  };

  const handleStore = new EtcdStore(kv, handleKind);
  const handleRange = { start: HANDLE_PREFIX };
  const handles: HandleStore = {
    get: (id) => handleStore.get(id),
    list: () => handleStore.list([handleRange]),
    create: (handle) => handleStore.create(handle),
    update: (handle) => handleStore.update(handle),
    delete: (handle) => handleStore.delete(handle.handleId, handle.revision),
    listWithRevision: () => handleStore.listWithRevision([handleRange]),
    watch: (options) => handleStore.watch(handleRange, options),
  };

  const configStore = new EtcdStore(kv, configKind);
  const ipamConfig: IpamConfigStore = {
    get: () => configStore.get('default'),
    create: (c) => configStore.create(c),
    update: (c) => configStore.update(c),
    delete: (revision) => configStore.delete('default', revision),
  };

  return {
    ipPools: resourceStore(kv, poolKind, POOL_PREFIX),
    ipReservations: resourceStore(kv, reservationKind, RESERVATION_PREFIX),
    nodes: resourceStore(kv, nodeKind, NODE_PREFIX),
    namespaces: resourceStore(kv, namespaceKind, NAMESPACE_PREFIX),
    blocks,
    affinities,
    handles,
    ipamConfig,
  };
}

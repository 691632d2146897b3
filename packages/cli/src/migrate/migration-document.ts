import {
  CodecError,
  decodeEtcd,
  decodeEtcdNode,
  encodeEtcd,
  encodeEtcdNode,
  parseWireJson,
  stringifyWireJson,
  type AllocationBlock,
  type BlockAffinity,
  type DatastoreKind,
  type EtcdEntry,
  type IPAMConfig,
  type IPAMHandle,
  type IPPool,
  type IPReservation,
  type Node,
  type WireKind,
  type WireModel,
} from '@ipamkit/models';
import { InputFileError } from '../errors.js';
import type { Migration } from './migration-contents.js';

// The export file (design/cli.md "datastore migrate"): one JSON document. Every object is an etcd
// key/value pair of Calico's layout, `{ Key, Value, TTL }` as calicoctl writes them (design/calico-callers.md#datastore-migrate),
// so the `ipam` section is calicoctl's IPAM section; resources and nodes sit beside it.

export const MIGRATION_API_VERSION = 'ipamkit.io/v1';
export const MIGRATION_KIND = 'DatastoreMigration';

const DATASTORE_KINDS: readonly DatastoreKind[] = ['memory', 'sqlite', 'etcd', 'kubernetes'];
const TOP_FIELDS = ['apiVersion', 'kind', 'source', 'nodeRenames', 'resources', 'ipam'];
const RESOURCE_FIELDS = ['ippools', 'ipreservations', 'nodes'];
const IPAM_FIELDS = ['block_affinities', 'blocks', 'handles', 'config'];
const ENTRY_FIELDS = ['Key', 'Value', 'TTL'];

interface WireEntry {
  readonly Key: string;
  readonly Value: unknown;
  readonly TTL: number;
}

function entry(kv: { key: string; value: string }): WireEntry {
  return { Key: kv.key, Value: parseWireJson(kv.value), TTL: 0 };
}

function sortedEntries(kvs: { key: string; value: string }[]): WireEntry[] {
  return kvs.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)).map(entry);
}

/** The document as a JSON value (for prettyJson). Empty lists and an absent config are left out. */
export function encodeMigrationDocument(migration: Migration): Record<string, unknown> {
  const c = migration.contents;
  const resources: Record<string, WireEntry[]> = {};
  const ipam: Record<string, unknown> = {};
  const put = (target: Record<string, unknown>, name: string, list: WireEntry[]): void => {
    if (list.length > 0) target[name] = list;
  };
  put(resources, 'ippools', sortedEntries(c.ipPools.map((p) => encodeEtcd('IPPool', p))));
  put(resources, 'ipreservations', sortedEntries(c.ipReservations.map((r) => encodeEtcd('IPReservation', r))));
  put(resources, 'nodes', sortedEntries(c.nodes.map((n) => encodeEtcdNode(n))));
  put(ipam, 'block_affinities', sortedEntries(c.affinities.map((a) => encodeEtcd('BlockAffinity', a))));
  put(ipam, 'blocks', sortedEntries(c.blocks.map((b) => encodeEtcd('IPAMBlock', b))));
  put(ipam, 'handles', sortedEntries(c.handles.map((h) => encodeEtcd('IPAMHandle', h))));
  if (c.config !== undefined) ipam.config = entry(encodeEtcd('IPAMConfig', c.config));
  return {
    apiVersion: MIGRATION_API_VERSION,
    kind: MIGRATION_KIND,
    source: migration.source,
    nodeRenames: { ...migration.nodeRenames },
    resources,
    ipam,
  };
}

type JsonObject = Record<string, unknown>;

class DocumentReader {
  constructor(private readonly file: string) {}

  fail(why: string, cause?: unknown): never {
    throw new InputFileError(this.file, why, cause === undefined ? undefined : { cause });
  }

  plain(value: unknown, where: string): JsonObject {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) this.fail(`${where} must be a JSON object`);
    return value as JsonObject;
  }

  object(value: unknown, where: string, fields: readonly string[]): JsonObject {
    const obj = this.plain(value, where);
    for (const key of Object.keys(obj)) {
      if (!fields.includes(key)) this.fail(`field in document is not recognized or is in the wrong location: ${where}.${key}`);
    }
    return obj;
  }

  entries(section: JsonObject, name: string, where: string): { key: string; value: string; where: string }[] {
    const list = section[name];
    if (list === undefined) return [];
    if (!Array.isArray(list)) this.fail(`${where}.${name} must be a list`);
    return (list as unknown[]).map((item, i) => this.entry(item, `${where}.${name}[${String(i)}]`));
  }

  entry(item: unknown, where: string): { key: string; value: string; where: string } {
    const obj = this.object(item, where, ENTRY_FIELDS);
    if (typeof obj.Key !== 'string') this.fail(`${where}.Key must be a string`);
    if (obj.TTL !== undefined && obj.TTL !== 0) this.fail(`${where}.TTL must be 0: leased keys are not migrated`);
    this.plain(obj.Value, `${where}.Value`);
    return { key: obj.Key, value: stringifyWireJson(obj.Value), where };
  }

  /** Decodes an entry and checks it is of the section's kind. */
  decode<K extends WireKind>(kv: { key: string; value: string; where: string }, kind: K): WireModel<K> {
    let decoded: EtcdEntry;
    try {
      decoded = decodeEtcd(kv.key, kv.value);
    } catch (err) {
      if (err instanceof CodecError) this.fail(`${kv.where}: ${err.message}`, err);
      throw err;
    }
    if (decoded.kind !== kind) this.fail(`${kv.where}: key ${kv.key} is of kind ${decoded.kind}, expected ${kind}`);
    return decoded.model as WireModel<K>;
  }

  node(kv: { key: string; value: string; where: string }): Node {
    try {
      return decodeEtcdNode(kv.key, kv.value);
    } catch (err) {
      if (err instanceof CodecError) this.fail(`${kv.where}: ${err.message}`, err);
      throw err;
    }
  }

  unique(keys: readonly string[], where: string): void {
    const seen = new Set<string>();
    for (const key of keys) {
      if (seen.has(key)) this.fail(`${where}: key ${key} appears more than once`);
      seen.add(key);
    }
  }
}

/**
 * Parses and validates a whole export file; any problem is an InputFileError naming the file and
 * the entry. Nothing is returned unless every entry decodes.
 */
export function decodeMigrationDocument(text: string, file: string): Migration {
  const r: DocumentReader = new DocumentReader(file);
  let parsed: unknown;
  try {
    parsed = parseWireJson(text);
  } catch (err) {
    if (err instanceof CodecError) r.fail(`not JSON: ${err.message}`, err);
    throw err;
  }
  const top = r.object(parsed, '$', TOP_FIELDS);
  if (top.apiVersion !== MIGRATION_API_VERSION || top.kind !== MIGRATION_KIND) {
    r.fail(`not an ipamkit export: expected apiVersion ${MIGRATION_API_VERSION} and kind ${MIGRATION_KIND}`);
  }
  const source = DATASTORE_KINDS.find((k) => k === top.source);
  if (source === undefined) r.fail(`$.source must be one of ${DATASTORE_KINDS.join(', ')}`);
  const renames = r.plain(top.nodeRenames ?? {}, '$.nodeRenames');
  const nodeRenames: Record<string, string> = {};
  for (const [from, to] of Object.entries(renames)) {
    if (typeof to !== 'string') r.fail(`$.nodeRenames.${from} must be a string`);
    nodeRenames[from] = to;
  }
  const resources = r.object(top.resources ?? {}, '$.resources', RESOURCE_FIELDS);
  const ipam = r.object(top.ipam ?? {}, '$.ipam', IPAM_FIELDS);

  const all = [
    ...RESOURCE_FIELDS.flatMap((name) => r.entries(resources, name, '$.resources')),
    ...IPAM_FIELDS.filter((name) => name !== 'config').flatMap((name) => r.entries(ipam, name, '$.ipam')),
  ];
  const configEntry = ipam.config === undefined ? undefined : r.entry(ipam.config, '$.ipam.config');
  r.unique([...all.map((kv) => kv.key), ...(configEntry === undefined ? [] : [configEntry.key])], '$');

  const ipPools: IPPool[] = r.entries(resources, 'ippools', '$.resources').map((kv) => r.decode(kv, 'IPPool'));
  const ipReservations: IPReservation[] = r.entries(resources, 'ipreservations', '$.resources').map((kv) => r.decode(kv, 'IPReservation'));
  const nodes: Node[] = r.entries(resources, 'nodes', '$.resources').map((kv) => r.node(kv));
  const affinities: BlockAffinity[] = r.entries(ipam, 'block_affinities', '$.ipam').map((kv) => r.decode(kv, 'BlockAffinity'));
  const blocks: AllocationBlock[] = r.entries(ipam, 'blocks', '$.ipam').map((kv) => r.decode(kv, 'IPAMBlock'));
  // The handle's ID is the key's (design/calico-callers.md#ipam-rewriting); an etcd value does not carry one.
  const handles: IPAMHandle[] = r.entries(ipam, 'handles', '$.ipam').map((kv) => r.decode(kv, 'IPAMHandle'));
  const config: IPAMConfig | undefined = configEntry === undefined ? undefined : r.decode(configEntry, 'IPAMConfig');
  return {
    source,
    nodeRenames,
    contents: { ipPools, ipReservations, nodes, affinities, blocks, handles, ...(config === undefined ? {} : { config }) },
  };
}

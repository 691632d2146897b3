import { AlreadyExistsError, ConflictError, NotFoundError, ValidationError, type Versioned, type WatchEvent, type WatchOptions } from '@ipamkit/models';
import { checkRevision, type EtcdKv, type RawKv, type TxnCompare } from './etcd-kv.js';
import type { EtcdKind, KeyRange } from './etcd-layout.js';
import { watchRange } from './etcd-watch.js';
import { withoutStack } from '../without-stack.js';

/** A `continue` token: `<revision>:<last key>`. */
function parsePageToken(token: string): { revision: string; key: string } {
  const colon = token.indexOf(':');
  const revision = token.slice(0, colon);
  if (colon < 1 || !/^[0-9]+$/.test(revision)) throw new ValidationError('not a continue token of this datastore');
  return { revision, key: token.slice(colon + 1) };
}

/** The end of the range of keys starting with `prefix` (ASCII): its last character plus one. */
function prefixEndText(prefix: string): string {
  return `${prefix.slice(0, -1)}${String.fromCharCode(prefix.charCodeAt(prefix.length - 1) + 1)}`;
}

/** Attempts to replace a soft-deleted row on create before giving up with a conflict. */
const CREATE_OVER_SOFT_DELETED_ATTEMPTS = 3;

/** What a failed compare means, from the key's current state (read in the same transaction). */
export function compareFailure<T, Id>(kind: EtcdKind<T, Id>, id: Id, compare: TxnCompare, current: RawKv | undefined): Error {
  const identifier = kind.describe(id);
  const live = current !== undefined && !isSoftDeleted(kind, current);
  if (compare.expect === 'absent') return new AlreadyExistsError(identifier);
  return live ? new ConflictError(identifier) : new NotFoundError(identifier);
}

export function isSoftDeleted<T, Id>(kind: EtcdKind<T, Id>, raw: RawKv): boolean {
  const value = kind.decode(raw.key, raw.value);
  return value !== undefined && kind.softDeleted(value);
}

/** strips `revision`/`uid` so that a Versioned value round-trips through the codec unchanged. */
function plain<T>(value: T): T {
  const { revision: _r, uid: _u, ...rest } = value as T & { revision?: string; uid?: string };
  return rest as T;
}

/**
 * CAS storage of one kind of object in etcd (design/calico-stored-formats.md#revisions-and-cas): revision = mod revision;
 * create = txn on create revision 0; update and delete = txn on mod revision, with the key read in
 * the else branch so a failure is classified without a second round trip.
 */
export class EtcdStore<T, Id> {
  constructor(
    readonly kv: EtcdKv,
    readonly kind: EtcdKind<T, Id>,
  ) {}

  /** The live value a raw key holds, undefined for a soft-deleted or foreign one. */
  versioned(raw: RawKv): Versioned<T> | undefined {
    const value = this.kv.memo.decode(raw.key, raw.modRevision, () => this.kind.decode(raw.key, raw.value), this.kv.takesWrittenValues);
    if (value === undefined || this.kind.softDeleted(value)) return undefined;
    return { ...value, revision: raw.modRevision };
  }

  async get(id: Id): Promise<Versioned<T>> {
    const raw = await this.kv.get(this.kind.key(id));
    const found = raw === undefined ? undefined : this.versioned(raw);
    // Stackless: the core reads objects that are usually absent (a fresh handle, the default config).
    if (found === undefined) throw withoutStack(() => new NotFoundError(this.kind.describe(id)));
    return found;
  }

  /** Live objects in `ranges`, read at one revision (the first range's) so the set is a snapshot. */
  async listWithRevision(ranges: readonly KeyRange[], keep: (v: T) => boolean = () => true): Promise<{ items: Versioned<T>[]; revision: string }> {
    const [first, ...rest] = ranges;
    if (first === undefined) return { items: [], revision: '0' };
    const head = await this.kv.range(first.start, first.end);
    const tails = await Promise.all(rest.map((r) => this.kv.range(r.start, r.end, head.revision)));
    const items: Versioned<T>[] = [];
    for (const raw of [head, ...tails].flatMap((r) => r.kvs)) {
      const v = this.versioned(raw);
      if (v !== undefined && keep(v)) items.push(v);
    }
    return { items, revision: head.revision };
  }

  /**
   * One page of `range` in key order: the keys after the token's, read at the token's revision (the
   * first page's), so the pages together are one snapshot. `read` turns a raw key into an item, or
   * undefined to leave it out (design/ipam-datastore.md, "Paged block reads").
   */
  async page<I>(range: KeyRange, limit: number, token: string | undefined, read: (raw: RawKv) => I | undefined): Promise<{ items: I[]; continue?: string }> {
    const after = token === undefined ? undefined : parsePageToken(token);
    const end = range.end ?? prefixEndText(range.start);
    const res = await this.kv.range(after === undefined ? range.start : `${after.key}\u0000`, end, after?.revision, limit);
    const items: I[] = [];
    for (const raw of res.kvs) {
      const item = read(raw);
      if (item !== undefined) items.push(item);
    }
    const last = res.kvs.at(-1);
    if (res.kvs.length < limit || last === undefined) return { items };
    return { items, continue: `${after?.revision ?? res.revision}:${last.key}` };
  }

  async list(ranges: readonly KeyRange[], keep?: (v: T) => boolean): Promise<Versioned<T>[]> {
    return (await this.listWithRevision(ranges, keep)).items;
  }

  async create(value: T): Promise<Versioned<T>> {
    const body = plain(value);
    const id = this.kind.idOf(body);
    const key = this.kind.key(id);
    const encoded = this.kind.encode(body);
    let compare: TxnCompare = { key, expect: 'absent' };
    for (let attempt = 0; attempt < CREATE_OVER_SOFT_DELETED_ATTEMPTS; attempt++) {
      const out = await this.kv.commit([compare], [{ op: 'put', key, value: encoded }], this.kind.describe(id));
      if (out.succeeded) return { ...body, revision: out.revision };
      const current = out.current[0];
      // A soft-deleted row is "absent" to every reader, so a create replaces it (by CAS); if it
      // vanished meanwhile, try again as a plain create.
      if (current === undefined) {
        compare = { key, expect: 'absent' };
        continue;
      }
      if (!isSoftDeleted(this.kind, current)) throw new AlreadyExistsError(this.kind.describe(id));
      compare = { key, expect: 'revision', revision: current.modRevision };
    }
    throw new ConflictError(this.kind.describe(id));
  }

  async update(value: Versioned<T>): Promise<Versioned<T>> {
    const body = plain(value);
    const id = this.kind.idOf(body);
    const key = this.kind.key(id);
    const compare: TxnCompare = { key, expect: 'revision', revision: checkRevision(value.revision, this.kind.describe(id)) };
    const out = await this.kv.commit([compare], [{ op: 'put', key, value: this.kind.encode(body) }], this.kind.describe(id));
    if (!out.succeeded) throw compareFailure(this.kind, id, compare, out.current[0]);
    return { ...body, revision: out.revision };
  }

  /** With a revision: compare-and-delete. Without: unconditional, NotFoundError if nothing was there. */
  async delete(id: Id, revision?: string): Promise<void> {
    const key = this.kind.key(id);
    const identifier = this.kind.describe(id);
    if (revision === undefined) {
      if (!(await this.kv.deleteKey(key))) throw new NotFoundError(identifier);
      return;
    }
    const compare: TxnCompare = { key, expect: 'revision', revision: checkRevision(revision, identifier) };
    const out = await this.kv.commit([compare], [{ op: 'delete', key }], identifier);
    if (!out.succeeded) throw compareFailure(this.kind, id, compare, out.current[0]);
  }

  watch(range: KeyRange, options: WatchOptions = {}, keep: (v: T) => boolean = () => true): AsyncIterable<WatchEvent<T>> {
    return watchRange(this.kv, range, this.kind, options, keep);
  }
}

import { Range, type Etcd3, type IKeyValue, type IOperation } from 'etcd3';
import { ValidationError } from '@ipamkit/models';
import { retryUnavailable, type RetryPolicy } from './retry-unavailable.js';

/** One stored key, with the key as Calico names it (our configured prefix removed). */
export interface RawKv {
  readonly key: string;
  readonly value: string;
  /** etcd mod revision, decimal: what every CAS compares and what callers see as `revision`. */
  readonly modRevision: string;
  readonly createRevision: string;
}

/** A precondition of a multi-key transaction. */
export type TxnCompare =
  | { readonly key: string; readonly expect: 'absent' }
  | { readonly key: string; readonly expect: 'revision'; readonly revision: string };

export type TxnOp = { readonly op: 'put'; readonly key: string; readonly value: string } | { readonly op: 'delete'; readonly key: string };

export interface TxnOutcome {
  readonly succeeded: boolean;
  /** The store revision after the transaction: the new mod revision of every key it wrote. */
  readonly revision: string;
  /** On failure, the current state of each compared key (undefined = absent), in compare order. */
  readonly current: (RawKv | undefined)[];
}

const REVISION = /^[1-9][0-9]{0,18}$/;

/** Rejects revisions that are not etcd mod revisions before they reach a compare. */
export function checkRevision(revision: string, identifier: string): string {
  if (!REVISION.test(revision)) {
    throw new ValidationError(`invalid etcd revision ${JSON.stringify(revision)} for ${identifier}: expected a positive decimal mod revision`);
  }
  return revision;
}

/**
 * Calico keys over an etcd3 client: an optional key prefix (for sharing one etcd between test
 * runs or tenants), error translation and unavailable-retry at one boundary, and the three
 * primitive operations every store is built from: read, range, compare-and-commit.
 */
export class EtcdKv {
  constructor(
    readonly client: Etcd3,
    readonly prefix: string,
    readonly retry: RetryPolicy,
  ) {}

  full(key: string): string {
    return this.prefix + key;
  }

  /** The store's current revision (one cheap read). */
  async currentRevision(): Promise<string> {
    return retryUnavailable('revision', this.retry, async () => (await this.client.get(this.full('/')).exec()).header.revision);
  }

  async get(key: string, atRevision?: string): Promise<RawKv | undefined> {
    return retryUnavailable(key, this.retry, async () => {
      const builder = this.client.get(this.full(key));
      if (atRevision !== undefined) builder.revision(atRevision);
      const res = await builder.exec();
      const kv = res.kvs[0];
      return kv === undefined ? undefined : this.toRaw(kv);
    });
  }

  /** Every key in [start, end) — or with prefix `start` when `end` is absent — at one revision. */
  async range(start: string, end?: string, atRevision?: string): Promise<{ kvs: RawKv[]; revision: string }> {
    return retryUnavailable(start, this.retry, async () => {
      const builder = this.client.getAll();
      if (end === undefined) builder.prefix(this.full(start));
      else builder.inRange(new Range(this.full(start), this.full(end)));
      if (atRevision !== undefined) builder.revision(atRevision);
      const res = await builder.exec();
      return { kvs: res.kvs.map((kv) => this.toRaw(kv)), revision: res.header.revision };
    });
  }

  /** Deletes one key unconditionally; returns whether it existed. */
  async deleteKey(key: string): Promise<boolean> {
    return retryUnavailable(key, this.retry, async () => {
      const res = await this.client.delete().key(this.full(key)).exec();
      return res.deleted !== '0';
    });
  }

  /**
   * One etcd transaction: if every compare holds, apply `ops`; otherwise read every compared key
   * so the caller can tell "missing" from "already there" from "changed" without another round trip.
   */
  async commit(compares: readonly TxnCompare[], ops: readonly TxnOp[], identifier: string): Promise<TxnOutcome> {
    const first = compares[0];
    if (first === undefined) throw new ValidationError(`transaction on ${identifier} has no preconditions`);
    return retryUnavailable(identifier, this.retry, async () => {
      const txn = this.client.if(this.full(first.key), ...this.compareArgs(first));
      for (const c of compares.slice(1)) txn.and(this.full(c.key), ...this.compareArgs(c));
      txn.then(...ops.map((o) => this.operation(o)));
      txn.else(...compares.map((c) => this.client.get(this.full(c.key))));
      const res = await txn.commit();
      const current = res.succeeded
        ? []
        : res.responses.map((r) => {
            const kv = r.response_range.kvs[0];
            return kv === undefined ? undefined : this.toRaw(kv);
          });
      return { succeeded: res.succeeded, revision: res.header.revision, current };
    });
  }

  private compareArgs(c: TxnCompare): ['Create' | 'Mod', '==', string | number] {
    // A missing key has create revision 0; mod revision comparison also fails for a missing key.
    return c.expect === 'absent' ? ['Create', '==', 0] : ['Mod', '==', c.revision];
  }

  private operation(o: TxnOp): IOperation {
    return o.op === 'put' ? this.client.put(this.full(o.key)).value(o.value) : this.client.delete().key(this.full(o.key));
  }

  toRaw(kv: IKeyValue): RawKv {
    const key = kv.key.toString('utf8');
    return {
      key: key.startsWith(this.prefix) ? key.slice(this.prefix.length) : key,
      value: kv.value.toString('utf8'),
      modRevision: kv.mod_revision,
      createRevision: kv.create_revision,
    };
  }
}

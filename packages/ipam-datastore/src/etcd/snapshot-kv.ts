import { ConflictError, WatchExpiredError } from '@ipamkit/models';
import { EtcdKv, type RawKv } from './etcd-kv.js';

/**
 * Reads pinned to one etcd revision, taken lazily at the first read: a transaction body sees one
 * consistent state however many reads it makes, concurrently or not (the DatastoreTx contract).
 * Writes are not pinned; their preconditions are checked at commit against the live store.
 */
export class SnapshotKv extends EtcdKv {
  private pinned: Promise<string> | undefined;

  constructor(base: EtcdKv) {
    super(base.client, base.prefix, base.retry);
  }

  private revision(): Promise<string> {
    this.pinned ??= this.currentRevision();
    return this.pinned;
  }

  override async get(key: string): Promise<RawKv | undefined> {
    const revision = await this.revision();
    return pinnedRead(() => super.get(key, revision));
  }

  override async range(start: string, end?: string): Promise<{ kvs: RawKv[]; revision: string }> {
    const revision = await this.revision();
    const out = await pinnedRead(() => super.range(start, end, revision));
    return { kvs: out.kvs, revision };
  }
}

/** A snapshot compacted away mid-transaction is a lost race: the caller re-reads and retries. */
async function pinnedRead<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof WatchExpiredError) throw new ConflictError('transaction snapshot', 'transaction snapshot was compacted; retry', { cause: err });
    throw err;
  }
}

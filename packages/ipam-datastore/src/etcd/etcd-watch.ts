import { Range, type IKeyValue, type IWatchResponse, type Watcher } from 'etcd3';
import { DatastoreUnavailableError, WatchExpiredError, type Versioned, type WatchEvent, type WatchOptions } from '@ipamkit/models';
import { AsyncQueue } from './async-queue.js';
import { checkRevision, type EtcdKv } from './etcd-kv.js';
import type { EtcdKind, KeyRange } from './etcd-layout.js';
import { translateEtcdError } from './translate-etcd-error.js';

/**
 * Watches `range` from `options.fromRevision` (exclusive) and turns etcd's put/delete events into
 * our events, in etcd's order. etcd3 re-establishes a broken watch stream by itself and resumes
 * after the last revision it delivered, so a reconnect neither loses nor repeats events. A start
 * revision that was compacted away ends the stream with WatchExpiredError: list again.
 *
 * Soft-deleted rows (etcd carries the flag though Calico never sets it there) are reported as
 * `deleted` when they appear and skipped afterwards, so consumers never see them as objects.
 */
/** Re-established streams in a row that delivered nothing before the stream gives up. */
const MAX_CONNECTS_WITHOUT_DATA = 5;

export function watchRange<T, Id>(
  kv: EtcdKv,
  range: KeyRange,
  kind: EtcdKind<T, Id>,
  options: WatchOptions,
  keep: (v: T) => boolean,
): AsyncIterable<WatchEvent<T>> {
  return { [Symbol.asyncIterator]: () => iterate(kv, range, kind, options, keep) };
}

async function* iterate<T, Id>(
  kv: EtcdKv,
  range: KeyRange,
  kind: EtcdKind<T, Id>,
  options: WatchOptions,
  keep: (v: T) => boolean,
): AsyncGenerator<WatchEvent<T>, void, undefined> {
  const identifier = `watch of ${kind.what}`;
  const queue = new AsyncQueue<WatchEvent<T>>();
  const { signal } = options;
  if (signal?.aborted === true) return;
  const builder = kv.client.watch().withPreviousKV();
  if (range.end === undefined) builder.prefix(kv.full(range.start));
  else builder.inRange(new Range(kv.full(range.start), kv.full(range.end)));
  const start = options.fromRevision === undefined ? undefined : (BigInt(checkRevision(options.fromRevision, identifier)) + 1n).toString();
  if (start !== undefined) builder.startRevision(start);

  let watcher: Watcher;
  try {
    watcher = await builder.create();
  } catch (err) {
    throw translateEtcdError(err, identifier);
  }
  // The first revision this stream still owes its consumer: where a failure is probed from, and
  // where a re-established stream must resume.
  let owed = start;
  // etcd3 resumes a broken stream after the *header* revision of the last response it saw, and the
  // header of the watch-created response is the store's revision, not the watch's progress: a
  // stream broken before it caught up from `start` would silently skip the events in between (seen
  // with an etcd restart right after a write). So the resume point is put back to the first
  // revision not yet delivered: now (etcd3 moved it when the watch was created), and whenever
  // etcd3 is about to send the create request again ('connecting' is emitted just before).
  const resumeAtOwed = (): void => {
    if (owed !== undefined) watcher.request.start_revision = owed;
  };
  resumeAtOwed();
  watcher.on('connecting', resumeAtOwed);
  // A stream that breaks every time right after it is re-established (a catch-up response it can
  // never receive) would otherwise retry forever in silence: end it, so the consumer lists again.
  let connectsWithoutData = 0;
  watcher.on('connected', () => {
    connectsWithoutData += 1;
    if (connectsWithoutData > MAX_CONNECTS_WITHOUT_DATA) {
      queue.fail(new DatastoreUnavailableError(`${identifier}: the stream broke ${MAX_CONNECTS_WITHOUT_DATA} times in a row before delivering anything; list again`));
    }
  });
  watcher.on('disconnected', (err: unknown) => {
    // A response over maxReceiveMessageBytes breaks the stream the same way on every reconnect.
    if (isMessageTooLarge(err)) {
      queue.fail(new DatastoreUnavailableError(`${identifier}: a watch response was larger than the client accepts (maxReceiveMessageBytes); list again`, { cause: err }));
    }
  });
  watcher.on('data', (res: IWatchResponse) => {
    connectsWithoutData = 0;
    try {
      for (const ev of res.events) {
        owed = (BigInt(ev.kv.mod_revision) + 1n).toString();
        const event = toEvent(kv, kind, keep, ev.type, ev.kv, ev.prev_kv);
        if (event !== undefined) queue.push(event);
      }
    } catch (err) {
      // An undecodable value must end this stream, not escape into etcd3's emitter.
      queue.fail(translateEtcdError(err, identifier));
    }
  });
  watcher.on('error', (err: unknown) => {
    // etcd cancels a watch on a compacted start revision without saying why (3.4 sets no cancel
    // reason), so ask: a read at that revision fails with "compacted" exactly then.
    void classifyWatchFailure(kv, range, owed, err, identifier).then((e) => queue.fail(e));
  });
  const onAbort = (): void => queue.end();
  signal?.addEventListener('abort', onAbort, { once: true });
  // An abort that arrived while the watch was being created must still end the stream.
  if (isAborted(signal)) queue.end();
  try {
    for (;;) {
      const next = await queue.next();
      if (next === undefined) return;
      yield next.value;
    }
  } finally {
    signal?.removeEventListener('abort', onAbort);
    watcher.removeAllListeners('data');
    await watcher.cancel().catch(() => undefined);
  }
}

async function classifyWatchFailure(kv: EtcdKv, range: KeyRange, revision: string | undefined, err: unknown, identifier: string): Promise<Error> {
  if (revision !== undefined) {
    try {
      await kv.range(range.start, range.end, revision);
    } catch (probe) {
      if (probe instanceof WatchExpiredError) return probe;
    }
  }
  return translateEtcdError(err, identifier);
}

function toEvent<T, Id>(
  kv: EtcdKv,
  kind: EtcdKind<T, Id>,
  keep: (v: T) => boolean,
  type: 'Put' | 'Delete',
  current: IKeyValue,
  previousKv: IKeyValue | null | undefined,
): WatchEvent<T> | undefined {
  // etcd3 hands `null` (not undefined) when there was no previous value.
  const previous = previousKv == null ? undefined : live(kv, kind, previousKv);
  const revision = current.mod_revision;
  if (type === 'Delete') {
    // Deleting a row that was already soft-deleted (or never ours) was reported, or is not news.
    if (previous === undefined || !keep(previous)) return undefined;
    return { type: 'deleted', key: kind.eventKey(kind.idOf(previous)), previous, revision };
  }
  const raw = kv.toRaw(current);
  const value = kind.decode(raw.key, raw.value);
  if (value === undefined || !keep(value)) return undefined;
  const key = kind.eventKey(kind.idOf(value));
  if (kind.softDeleted(value)) {
    if (previous === undefined) return undefined;
    return { type: 'deleted', key, previous, revision };
  }
  const object: Versioned<T> = { ...value, revision };
  return { type: previous === undefined ? 'added' : 'modified', key, object, revision };
}

/** The decoded, live (not soft-deleted) object in `raw`, with its revision; else undefined. */
function live<T, Id>(kv: EtcdKv, kind: EtcdKind<T, Id>, rawKv: IKeyValue): Versioned<T> | undefined {
  const raw = kv.toRaw(rawKv);
  const value = kind.decode(raw.key, raw.value);
  if (value === undefined || kind.softDeleted(value)) return undefined;
  return { ...value, revision: raw.modRevision };
}

/** gRPC RESOURCE_EXHAUSTED for an oversized message (code 8, "Received message larger than max"). */
function isMessageTooLarge(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  return code === 8 || (typeof message === 'string' && message.includes('larger than max'));
}

/** Read through a call so the compiler does not carry the pre-`await` narrowing of `aborted`. */
function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

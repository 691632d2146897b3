import { WatchExpiredError, type Versioned, type WatchEvent, type WatchOptions } from '@ipamkit/models';
import { AsyncQueue } from './async-queue.js';
import { checkRevision, type EtcdKv } from './etcd-kv.js';
import type { EtcdKind, KeyRange } from './etcd-layout.js';
import { translateEtcdError } from './translate-etcd-error.js';
import type { WireKv, WireWatch, WireWatchEvent } from './wire/etcd-wire.js';
import { EtcdWireError } from './wire/wire-error.js';

/**
 * Watches `range` from `options.fromRevision` (exclusive) and turns etcd's put/delete events into
 * our events, in etcd's order. Both etcd clients re-establish a broken watch stream by themselves and
 * resume after the last revision they delivered, so a reconnect neither loses nor repeats events. A start
 * revision that was compacted away ends the stream with WatchExpiredError: list again.
 *
 * Soft-deleted rows (etcd carries the flag though Calico never sets it there) are reported as
 * `deleted` when they appear and skipped afterwards, so consumers never see them as objects.
 */
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
  const start = options.fromRevision === undefined ? undefined : (BigInt(checkRevision(options.fromRevision, identifier)) + 1n).toString();
  // The first revision this stream still owes its consumer: where a failure is probed from.
  let owed = start;
  let watch: WireWatch;
  try {
    watch = await kv.wire.watch(
      { ...kv.rangeBytes(range.start, range.end), ...(start === undefined ? {} : { startRevision: start }) },
      {
        onEvents: (events) => {
          try {
            for (const ev of events) {
              owed = (BigInt(ev.kv.modRevision) + 1n).toString();
              const event = toEvent(kv, kind, keep, ev);
              if (event !== undefined) queue.push(event);
            }
          } catch (err) {
            // An undecodable value must end this stream, not escape into the client's emitter.
            queue.fail(translateEtcdError(err, identifier));
          }
        },
        // etcd 3.4 may cancel a watch on a compacted start revision without saying why, so ask:
        // a read at that revision fails with "compacted" exactly then.
        onFailure: (err) => void classifyWatchFailure(kv, range, owed, err, identifier).then((e) => queue.fail(e)),
      },
    );
  } catch (err) {
    throw translateEtcdError(err, identifier);
  }
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
    await watch.cancel().catch(() => undefined);
  }
}

async function classifyWatchFailure(kv: EtcdKv, range: KeyRange, revision: string | undefined, err: unknown, identifier: string): Promise<Error> {
  if (revision !== undefined && !(err instanceof EtcdWireError && err.kind === 'compacted')) {
    try {
      await kv.range(range.start, range.end, revision);
    } catch (probe) {
      if (probe instanceof WatchExpiredError) return probe;
    }
  }
  return translateEtcdError(err, identifier);
}

function toEvent<T, Id>(kv: EtcdKv, kind: EtcdKind<T, Id>, keep: (v: T) => boolean, ev: WireWatchEvent): WatchEvent<T> | undefined {
  const previous = ev.previous === undefined ? undefined : live(kv, kind, ev.previous);
  const revision = ev.kv.modRevision;
  if (ev.type === 'delete') {
    // Deleting a row that was already soft-deleted (or never ours) was reported, or is not news.
    if (previous === undefined || !keep(previous)) return undefined;
    return { type: 'deleted', key: kind.eventKey(kind.idOf(previous)), previous, revision };
  }
  const raw = kv.toRaw(ev.kv);
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
function live<T, Id>(kv: EtcdKv, kind: EtcdKind<T, Id>, rawKv: WireKv): Versioned<T> | undefined {
  const raw = kv.toRaw(rawKv);
  const value = kind.decode(raw.key, raw.value);
  if (value === undefined || kind.softDeleted(value)) return undefined;
  return { ...value, revision: raw.modRevision };
}

/** Read through a call so the compiler does not carry the pre-`await` narrowing of `aborted`. */
function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

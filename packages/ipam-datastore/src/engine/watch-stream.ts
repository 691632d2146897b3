import { WatchExpiredError, type Versioned, type WatchEvent, type WatchOptions } from '@ipamkit/models';
import type { KindName } from './kinds.js';
import type { ChangeRecord, RowEngine } from './row-engine.js';

/** What a watch needs from the datastore that owns the engine. */
export interface WatchSource {
  readonly engine: RowEngine;
  /** Runs `fn` in a read of the engine, serialized with the process's other engine calls. */
  read<R>(fn: () => R): Promise<R>;
  readonly isClosed: () => boolean;
  readonly pollIntervalMs: number;
}

const BATCH = 512;

export function toEvent<T>(c: ChangeRecord): WatchEvent<T> {
  const revision = String(c.revision);
  const object = { ...c.value, revision: String(c.valueRevision) } as unknown as Versioned<T>;
  return c.type === 'deleted'
    ? { type: 'deleted', key: c.key, previous: object, revision }
    : { type: c.type, key: c.key, object, revision };
}

/**
 * Wake-ups for one watch. Subscribed for the watch's whole life, so that a commit landing between
 * a read of the log and the wait is not lost (it sets `dirty` and the wait returns at once).
 */
class Wakeup {
  private dirty = false;
  private wake: (() => void) | undefined;
  private readonly unsubscribe: (() => void) | undefined;

  constructor(private readonly source: WatchSource) {
    this.unsubscribe = source.engine.subscribe?.(() => {
      this.dirty = true;
      this.wake?.();
    });
  }

  /** Call before reading the log: changes committed after this point will wake the next wait. */
  arm(): void {
    this.dirty = false;
  }

  /** Waits for a change notification, the poll interval, or the abort, whichever comes first. */
  wait(signal: AbortSignal | undefined): Promise<void> {
    if (this.dirty) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.wake = undefined;
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, this.source.pollIntervalMs);
      this.wake = done;
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  close(): void {
    this.unsubscribe?.();
  }
}

/**
 * Replays the change log of `kind` after `fromRevision` (default: the current revision), then
 * follows it. The log is shared by all processes on a SQLite file, so this sees their writes too.
 */
export async function* watchKind<T>(source: WatchSource, kind: KindName, options: WatchOptions = {}): AsyncGenerator<WatchEvent<T>> {
  const { signal } = options;
  // A function, not a narrowed property read: the signal flips while the generator is suspended.
  const aborted = (): boolean => signal?.aborted === true;
  let after =
    options.fromRevision === undefined
      ? await source.read(() => source.engine.currentRevision())
      : BigInt(/^\d{1,20}$/.test(options.fromRevision) ? options.fromRevision : '-1');
  if (after < 0n) throw new WatchExpiredError(`invalid watch revision ${JSON.stringify(options.fromRevision)}`);
  const wakeup = new Wakeup(source);
  try {
    while (!aborted() && !source.isClosed()) {
      wakeup.arm();
      const from = after;
      const batch = await source.read(() => {
        const compacted = source.engine.compactedRevision();
        if (from < compacted) throw new WatchExpiredError(`revision ${from} has been compacted (oldest kept: ${compacted + 1n}); list again`);
        return source.engine.changesSince(kind, from, BATCH);
      });
      for (const change of batch) {
        if (aborted()) return;
        after = change.revision;
        yield toEvent<T>(change);
      }
      if (batch.length < BATCH) await wakeup.wait(signal);
    }
  } finally {
    wakeup.close();
  }
}

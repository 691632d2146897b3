import { DatastoreClosedError } from '../errors.js';
import { AsyncMutex } from './async-mutex.js';
import type { RowEngine } from './row-engine.js';
import type { WatchSource } from './watch-stream.js';

/**
 * Serializes every engine call of one datastore and translates engine errors once, here at the
 * boundary. A `transact` holds the mutex for its whole body so that no other call of this process
 * runs inside its open transaction. Writes also take the engine's writer mutex, which every handle
 * on the same SQLite file in this process shares (`exclusiveWrite`).
 */
export class EngineRunner implements WatchSource {
  private readonly mutex = new AsyncMutex();
  private closed = false;

  constructor(
    readonly engine: RowEngine,
    readonly pollIntervalMs: number,
  ) {}

  readonly isClosed = (): boolean => this.closed;

  /** Runs a synchronous engine step, mapping whatever it throws through `translateError`. */
  guard<R>(fn: () => R): R {
    try {
      return fn();
    } catch (err) {
      throw this.engine.translateError(err);
    }
  }

  read<R>(fn: () => R): Promise<R> {
    return this.exclusive(() => this.readNow(fn));
  }

  write<R>(fn: () => R): Promise<R> {
    return this.exclusiveWrite(() => this.writeNow(fn));
  }

  /** For callers already holding the mutex (transact). */
  readNow<R>(fn: () => R): R {
    this.guard(() => this.engine.beginRead());
    try {
      return this.guard(fn);
    } finally {
      this.guard(() => this.engine.endRead());
    }
  }

  /** Only through `write`, which holds the writer mutex (design/ipam-datastore.md, "One writer per file in a process"). */
  private writeNow<R>(fn: () => R): R {
    this.guard(() => this.engine.beginWrite());
    let result: R;
    try {
      result = this.guard(fn);
    } catch (err) {
      this.guard(() => this.engine.rollback());
      throw err;
    }
    this.guard(() => this.engine.commit());
    return result;
  }

  exclusive<R>(fn: () => R | Promise<R>): Promise<R> {
    return this.mutex.run(() => {
      if (this.closed) throw new DatastoreClosedError();
      return fn();
    });
  }

  /**
   * `exclusive`, then the engine's writer mutex (shared with the other handles on the same file),
   * for anything that opens a write transaction. Always in this order; the writer mutex is never
   * held while waiting for a handle's own mutex, so handles cannot deadlock each other.
   */
  exclusiveWrite<R>(fn: () => R | Promise<R>): Promise<R> {
    const writer = this.engine.writerMutex;
    return this.exclusive(() => (writer === undefined ? fn() : writer.run(fn)));
  }

  async close(): Promise<void> {
    await this.mutex.run(() => {
      if (this.closed) return;
      this.closed = true;
      this.engine.close();
    });
  }
}

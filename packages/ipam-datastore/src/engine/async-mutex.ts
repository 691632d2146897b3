/**
 * A FIFO mutex for async critical sections. The engine backends need it because one SQLite
 * connection (or one in-memory state) is shared by every caller in the process, and a `transact`
 * body awaits while its transaction is open.
 */
export class AsyncMutex {
  private tail: Promise<void> = Promise.resolve();

  async run<R>(fn: () => R | Promise<R>): Promise<R> {
    let release!: () => void;
    const next = new Promise<void>((resolve) => {
      release = resolve;
    });
    const previous = this.tail;
    this.tail = next;
    await previous;
    try {
      return await fn();
    } finally {
      release();
    }
  }
}

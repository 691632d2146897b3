/**
 * An unbounded single-consumer queue bridging event-emitter callbacks to an async iterator: values
 * are delivered in push order, a failure is delivered after the values queued before it, and
 * `end()` finishes the stream once the queue has drained.
 */
export class AsyncQueue<T> {
  private readonly items: T[] = [];
  private failure: { error: unknown } | undefined;
  private ended = false;
  private wake: (() => void) | undefined;

  push(item: T): void {
    if (this.ended || this.failure !== undefined) return;
    this.items.push(item);
    this.notify();
  }

  fail(error: unknown): void {
    if (this.ended || this.failure !== undefined) return;
    this.failure = { error };
    this.notify();
  }

  end(): void {
    this.ended = true;
    this.notify();
  }

  /** The next value; `undefined` once the queue has ended. Throws the failure after draining. */
  async next(): Promise<{ value: T } | undefined> {
    for (;;) {
      const item = this.items.shift();
      if (item !== undefined) return { value: item };
      if (this.failure !== undefined) throw this.failure.error;
      if (this.ended) return undefined;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }
}

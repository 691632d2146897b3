/**
 * Runs reconciles one at a time and never loses a trigger (design/tunnel-alloc.md, "Triggers").
 * Calico's loop drops a trigger that arrives while a reconcile runs; here such triggers set a
 * one-slot pending flag, so every burst during a run costs exactly one more run, and the last
 * change is always followed by a reconcile that saw it.
 */
export class ReconcileScheduler {
  private running = false;
  private pending = false;
  private stopped = false;
  private failure: unknown;
  private readonly idleWaiters: (() => void)[] = [];

  constructor(
    private readonly run: () => Promise<void>,
    private readonly onFailure: (err: unknown) => void,
  ) {}

  /** Asks for a reconcile: starts one now if idle, else remembers one (at most) for later. */
  trigger(): void {
    if (this.stopped) return;
    if (this.running) {
      this.pending = true;
      return;
    }
    this.running = true;
    void this.loop();
  }

  /** No further runs start; a run in progress finishes. */
  stop(): void {
    this.stopped = true;
    this.pending = false;
  }

  /** True while a run is in progress or queued. */
  get busy(): boolean {
    return this.running;
  }

  /** Resolves when no run is in progress or pending. */
  idle(): Promise<void> {
    if (!this.running) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  // A method, not an inline check: `run()` may flip these flags while the loop awaits it.
  private shouldRunAgain(): boolean {
    return this.pending && !this.stopped;
  }

  private async loop(): Promise<void> {
    do {
      this.pending = false;
      try {
        await this.run();
      } catch (err) {
        this.failure = err;
        this.stopped = true;
        this.pending = false;
      }
    } while (this.shouldRunAgain());
    this.running = false;
    for (const wake of this.idleWaiters.splice(0)) wake();
    if (this.failure !== undefined) {
      const err = this.failure;
      this.failure = undefined;
      this.onFailure(err);
    }
  }
}

import { describe, expect, it } from 'vitest';
import { ReconcileScheduler } from '../src/reconcile-scheduler.js';

/** A promise the test resolves by hand. */
function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => (open = resolve));
  return { promise, open };
}

describe('ReconcileScheduler', () => {
  it('runs once per trigger when triggers arrive while idle', async () => {
    let runs = 0;
    const scheduler = new ReconcileScheduler(() => {
      runs += 1;
      return Promise.resolve();
    }, () => undefined);
    scheduler.trigger();
    await scheduler.idle();
    scheduler.trigger();
    await scheduler.idle();
    expect(runs).toBe(2);
  });

  it('coalesces triggers raised during a run into exactly one more run (Calico drops them)', async () => {
    const gates = [gate(), gate()];
    const started: number[] = [];
    const scheduler = new ReconcileScheduler(async () => {
      started.push(started.length);
      await gates[started.length - 1]!.promise;
    }, () => undefined);
    scheduler.trigger();
    expect(started).toEqual([0]);
    scheduler.trigger();
    scheduler.trigger();
    scheduler.trigger();
    expect(scheduler.busy).toBe(true);
    gates[0]!.open();
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([0, 1]);
    gates[1]!.open();
    await scheduler.idle();
    expect(started).toEqual([0, 1]);
    expect(scheduler.busy).toBe(false);
  });

  it('reports a failed run once and starts no further runs', async () => {
    const failures: unknown[] = [];
    let runs = 0;
    const boom = new Error('boom');
    const scheduler = new ReconcileScheduler(() => {
      runs += 1;
      return Promise.reject(boom);
    }, (err) => failures.push(err));
    scheduler.trigger();
    await scheduler.idle();
    scheduler.trigger();
    await scheduler.idle();
    expect(runs).toBe(1);
    expect(failures).toEqual([boom]);
  });

  it('drops a pending run when stopped during a run', async () => {
    const first = gate();
    let runs = 0;
    const scheduler = new ReconcileScheduler(async () => {
      runs += 1;
      await first.promise;
    }, () => undefined);
    scheduler.trigger();
    scheduler.trigger();
    scheduler.stop();
    first.open();
    await scheduler.idle();
    expect(runs).toBe(1);
  });
});

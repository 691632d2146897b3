import { describe, expect, it } from 'vitest';
import { RetryController } from '../src/controller/retry-controller.js';

describe('RetryController', () => {
  it('doubles from 5 ms up to the 30 s cap and resets on success', () => {
    const now = 0;
    const retry = new RetryController(() => undefined, () => now);
    const delays = Array.from({ length: 15 }, () => retry.nextDelayMs());
    expect(delays.slice(0, 4)).toEqual([5, 10, 20, 40]);
    expect(delays[14]).toBe(30_000);
    retry.success();
    expect(retry.nextDelayMs()).toBe(5);
  });

  it('waits for the token bucket once the burst of 100 is spent', () => {
    const retry = new RetryController(() => undefined, () => 0);
    for (let i = 0; i < 100; i++) {
      retry.nextDelayMs();
      retry.success();
    }
    // The 101st retry at the same instant waits for one token at 10/s.
    expect(retry.nextDelayMs()).toBe(100);
  });
});

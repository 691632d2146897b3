import type { Clock } from '@ipamkit/models';

/** A `Clock` the test moves by hand (design/test-utils.md, "Fake clock"). */
export class FakeClock implements Clock {
  private ms: number;
  constructor(start: Date | number = Date.UTC(2026, 7, 22, 12, 0, 0)) {
    this.ms = typeof start === 'number' ? start : start.getTime();
  }
  now(): Date {
    return new Date(this.ms);
  }
  advance(seconds: number): void {
    this.ms += seconds * 1000;
  }
  advanceMs(ms: number): void {
    this.ms += ms;
  }
}

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SequenceTracker } from '../src/checks/sequence-tracker.js';

describe('SequenceTracker', () => {
  it('accepts a block whose sequence number only increases', () => {
    const t = new SequenceTracker();
    for (const n of [1n, 2n, 2n, 7n]) t.seen('10.0.0.0/26', n, false);
    expect(t.violations).toEqual([]);
  });

  it('reports a sequence number that goes back', () => {
    const t = new SequenceTracker();
    t.seen('10.0.0.0/26', 5n, false);
    t.seen('10.0.0.0/26', 4n, false);
    expect(t.violations).toEqual(['block 10.0.0.0/26 sequence number went back from 5 to 4']);
  });

  it('starts over after the block is deleted (a new claim starts a new life)', () => {
    const t = new SequenceTracker();
    t.seen('10.0.0.0/26', 5n, false);
    t.gone('10.0.0.0/26');
    t.seen('10.0.0.0/26', 0n, false);
    expect(t.violations).toEqual([]);
  });

  it('does not compare across a gap in the event stream', () => {
    const t = new SequenceTracker();
    t.seen('10.0.0.0/26', 5n, false);
    t.forget();
    t.seen('10.0.0.0/26', 1n, false);
    expect(t.violations).toEqual([]);
  });

  it('flags a stream exactly when it is not non-decreasing (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.bigInt({ min: 0n, max: 50n }), { maxLength: 30 }), (seq) => {
        const t = new SequenceTracker();
        for (const n of seq) t.seen('b', n, false);
        const decreases = seq.filter((n, i) => i > 0 && n < (seq[i - 1] ?? 0n)).length;
        expect(t.violations).toHaveLength(decreases);
      }),
    );
  });
});

import { describe, expect, it } from 'vitest';
import { runHammer } from '../src/hammer/run-hammer.js';
import { renderHammer } from '../src/hammer/render-hammer.js';
import { resolveHammerOptions } from '../src/hammer/hammer-options.js';
import { SimConfigError } from '../src/errors.js';

// CI-sized: the full acceptance run (16 processes, 100,000 operations) is `ipamkit-sim hammer`.
describe('runHammer', () => {
  it('passes every Part B check on SQLite with allocators killed mid-operation', async () => {
    const r = await runHammer({ processes: 4, ops: 300, killRate: 0.03, gracePeriodMs: 500, seed: 3 });
    expect(r.violations).toEqual([]);
    expect(r.adds + r.dels + r.kills).toBeGreaterThanOrEqual(290);
    expect(r.kills).toBeGreaterThan(0);
    expect(r.sequenceObservations).toBeGreaterThan(0);
    expect(renderHammer(r)).toContain('RESULT: OK');
  });

  it('passes every Part B check on a real etcd restarted half way', async () => {
    const r = await runHammer({ processes: 3, ops: 200, killRate: 0.02, datastore: 'etcd', restartEtcd: true, gracePeriodMs: 500, seed: 4 });
    expect(r.violations).toEqual([]);
    expect(r.etcdRestarts).toBe(1);
    expect(r.adds).toBeGreaterThan(0);
  });
});

describe('resolveHammerOptions', () => {
  it.each([
    { partial: { processes: 0 }, message: '--processes must be an integer from 1 to 256, got 0' },
    { partial: { killRate: 0.9 }, message: '--kill-rate must be between 0 and 0.5, got 0.9' },
    { partial: { restartEtcd: true }, message: '--restart-etcd needs --datastore etcd' },
  ])('rejects $partial', ({ partial, message }) => {
    expect(() => resolveHammerOptions(partial)).toThrow(new SimConfigError(message));
  });
});

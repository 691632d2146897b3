import { describe, expect, it } from 'vitest';
import { SimConfigError } from '../src/errors.js';
import { resolveHammerOptions } from '../src/hammer/hammer-options.js';
import { renderHammer } from '../src/hammer/render-hammer.js';
import { runHammer } from '../src/hammer/run-hammer.js';

// CI-sized all-callers hammers (design/sim.md, "All callers"); the bigger runs are in that doc.
describe('runHammer --all-callers', () => {
  it('SQLite, CNI and controller processes SIGKILLed: no duplicate, no leak, no drift after settle', async () => {
    const r = await runHammer({ allCallers: true, processes: 2, ops: 36, killRate: 0.15, controllerKillMs: 1000, services: 3, gracePeriodMs: 1000, settleTimeoutMs: 40_000, seed: 5 });
    expect(r.violations).toEqual([]);
    const a = r.allCallers;
    expect(a).toBeDefined();
    expect(a?.cniProcesses).toBe(36);
    expect(a?.cniKills).toBeGreaterThan(0);
    expect(a?.controllerKills).toBeGreaterThan(0);
    expect(a?.servicesCreated).toBeGreaterThan(0);
    expect([a?.duplicates, a?.leaks, a?.drift]).toEqual([0, 0, 0]);
    // Live pods, Services and two node tunnels hold addresses: the check had something to judge.
    expect(r.allocationsAtEnd).toBeGreaterThan(2);
    expect(renderHammer(r)).toContain('RESULT: OK');
  }, 90_000);

  it('Kubernetes API test server answering 409/500/410: no duplicate, no leak, no drift after settle', async () => {
    const r = await runHammer({ allCallers: true, datastore: 'kubernetes', faultRate: 0.05, processes: 2, ops: 12, killRate: 0, controllerKillMs: 0, services: 2, gracePeriodMs: 1000, settleTimeoutMs: 40_000, seed: 6 });
    expect(r.violations).toEqual([]);
    const a = r.allCallers;
    const injected = a === undefined ? 0 : a.faultsInjected[409] + a.faultsInjected[500] + a.faultsInjected[410];
    expect(injected).toBeGreaterThan(0);
    expect([a?.duplicates, a?.leaks, a?.drift]).toEqual([0, 0, 0]);
    // Injected 500s may fail some ADDs (answered 11, the pod then never runs), so how many addresses
    // are live at the end varies between runs; the checks above are what must hold, on a non-empty cluster.
    expect(r.allocationsAtEnd).toBeGreaterThan(0);
  }, 90_000);
});

describe('resolveHammerOptions (all callers)', () => {
  it.each([
    { partial: { datastore: 'kubernetes' as const }, message: '--datastore kubernetes needs --all-callers' },
    { partial: { faultRate: 0.1 }, message: '--fault-rate needs --all-callers' },
    { partial: { allCallers: true, faultRate: 0.9 }, message: '--fault-rate must be between 0 and 0.5, got 0.9' },
    { partial: { allCallers: true, datastore: 'etcd' as const }, message: '--all-callers runs on sqlite or kubernetes, not etcd' },
    { partial: { allCallers: true, controllerKillMs: 50 }, message: '--controller-kill-ms must be 0 or at least 200, got 50' },
  ])('rejects $partial', ({ partial, message }) => {
    expect(() => resolveHammerOptions(partial)).toThrow(new SimConfigError(message));
  });
});

import { Registry } from 'prom-client';
import { describe, expect, it, vi } from 'vitest';
import { ControllerConfigError } from '../src/errors.js';
import type { LeaderElector } from '../src/runner/leader-elector.js';
import { type ControllerDefinition, runController, type RunningController } from '../src/runner/run-controller.js';

/** An elector the test drives: `grant()` makes `acquire` win; it records releases. */
class FakeElector implements LeaderElector {
  isLeader = false;
  released = 0;
  private grantNow: (() => void) | undefined;
  private readonly granted = new Promise<void>((resolve) => {
    this.grantNow = resolve;
  });

  grant(): void {
    this.grantNow?.();
  }

  async acquire(signal: AbortSignal): Promise<boolean> {
    await Promise.race([this.granted, new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }))]);
    this.isLeader = !signal.aborted;
    return this.isLeader;
  }

  keepRenewing(): void {}
  stop(): void {}
  async release(): Promise<void> {
    this.released += 1;
    this.isLeader = false;
    return Promise.resolve();
  }
}

interface Harness {
  readonly elector: FakeElector;
  readonly stop: AbortController;
  finishSync(): void;
  readonly stopped: () => number;
  readonly done: Promise<number>;
  port(): Promise<number>;
}

function harness(argv: string[]): Harness {
  const elector = new FakeElector();
  const stop = new AbortController();
  let finishSync: () => void = () => undefined;
  let stopped = 0;
  let port: (p: number) => void = () => undefined;
  const portKnown = new Promise<number>((resolve) => (port = resolve));
  const writeStderr = process.stderr.write.bind(process.stderr);
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    const text = typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    const match = /"msg":"metrics listening","port":(\d+)/.exec(text);
    if (match !== null) port(Number(match[1]));
    return text.startsWith('{') ? true : writeStderr(chunk);
  });
  const definition: ControllerDefinition<{ mode: string }> = {
    name: 'test-controller',
    usage: 'Usage: test-controller',
    version: '9.8.7',
    flags: { mode: { type: 'string' } },
    defaultMetricsPort: 0,
    metricsPortEnv: 'TEST_METRICS_PORT',
    configure: (values) => {
      if (values['mode'] === 'bad') throw new ControllerConfigError('invalid mode: bad');
      return { mode: typeof values['mode'] === 'string' ? values['mode'] : 'normal' };
    },
    createElector: () => elector,
    start: (): Promise<RunningController> =>
      Promise.resolve({
        synced: new Promise<void>((resolve) => (finishSync = resolve)),
        stop: () => {
          stopped += 1;
          return Promise.resolve();
        },
      }),
    runningMessage: 'test controller running',
  };
  const done = runController(definition, ['--metrics-port', '0', ...argv], { env: {}, registry: new Registry(), signal: stop.signal, forceExit: () => undefined });
  return { elector, stop, finishSync: () => finishSync(), stopped: () => stopped, done, port: () => portKnown };
}

const get = async (port: number, path: string): Promise<{ status: number; text: string }> => {
  const res = await fetch(`http://127.0.0.1:${String(port)}${path}`);
  return { status: res.status, text: await res.text() };
};

describe('runController', () => {
  it('is live at once, serves process metrics before the first sync, and ready only after it', async () => {
    const h = harness(['--leader-elect']);
    const port = await h.port();
    expect((await get(port, '/healthz')).status).toBe(200);
    expect((await get(port, '/readyz')).status).toBe(503);
    const early = await get(port, '/metrics');
    for (const name of ['process_cpu_seconds_total', 'process_resident_memory_bytes', 'process_start_time_seconds', 'nodejs_heap_size_used_bytes', 'nodejs_eventloop_lag_seconds']) {
      expect(early.text).toContain(`# TYPE ${name} `);
    }
    h.elector.grant();
    await vi.waitFor(() => expect(h.elector.isLeader).toBe(true));
    expect((await get(port, '/readyz')).status).toBe(503);
    h.finishSync();
    await vi.waitFor(async () => expect((await get(port, '/readyz')).status).toBe(200));
    h.stop.abort();
    expect(await h.done).toBe(0);
    expect(h.stopped()).toBe(1);
    expect(h.elector.released).toBe(1);
    vi.restoreAllMocks();
  });

  it('shuts down cleanly while waiting for leadership, with nothing to release', async () => {
    const h = harness(['--leader-elect']);
    await h.port();
    h.stop.abort();
    expect(await h.done).toBe(0);
    expect(h.stopped()).toBe(0);
    expect(h.elector.released).toBe(0);
    vi.restoreAllMocks();
  });

  it('shuts down cleanly before the first sync, stopping the controller and releasing the lease', async () => {
    const h = harness(['--leader-elect']);
    await h.port();
    h.elector.grant();
    await vi.waitFor(() => expect(h.elector.isLeader).toBe(true));
    h.stop.abort();
    expect(await h.done).toBe(0);
    expect(h.stopped()).toBe(1);
    expect(h.elector.released).toBe(1);
    vi.restoreAllMocks();
  });

  it('answers --version and --help with the definition\'s version and usage, starting nothing', async () => {
    const printed: string[] = [];
    const definition: ControllerDefinition<object> = { name: 'x', usage: 'Usage: x', version: '1.2.3', flags: {}, defaultMetricsPort: -1, metricsPortEnv: 'X', configure: () => ({}), createElector: () => new FakeElector(), start: () => Promise.reject(new Error('not reached')), runningMessage: '' };
    expect(await runController(definition, ['--version'], { env: {}, stdout: { write: (t: string) => printed.push(t) } })).toBe(0);
    expect(await runController(definition, ['--help'], { env: {}, stdout: { write: (t: string) => printed.push(t) } })).toBe(0);
    expect(printed).toEqual(['1.2.3\n', 'Usage: x\n']);
  });

  it('refuses a bad flag value before starting anything', async () => {
    await expect(runController({ name: 'x', usage: '', version: '0', flags: {}, defaultMetricsPort: 0, metricsPortEnv: 'X', configure: () => ({}), createElector: () => new FakeElector(), start: () => Promise.reject(new Error('not reached')), runningMessage: '' }, ['--metrics-port', 'nine'], { env: {} })).rejects.toThrow(ControllerConfigError);
    await expect(runController({ name: 'x', usage: '', version: '0', flags: {}, defaultMetricsPort: 0, metricsPortEnv: 'X', configure: () => ({}), createElector: () => new FakeElector(), start: () => Promise.reject(new Error('not reached')), runningMessage: '' }, ['--lease-duration', 'soon'], { env: {} })).rejects.toThrow('invalid duration "soon"');
  });
});

import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { armAlarm, armAlarmWith } from '../../src/retry/alarm.js';

const elapsedMs = (since: bigint): number => Number(process.hrtime.bigint() - since) / 1e6;
const ALARM_MODULE = fileURLToPath(new URL('../../src/retry/alarm.ts', import.meta.url));

/**
 * Runs `body` (a module script with `armAlarm` in scope) in a fresh Node: the alarm module, which
 * imports nothing, transpiled to JavaScript beside it. Its stdout and exit code.
 */
function inFreshNode(body: string): { stdout: string; status: number | null } {
  const dir = mkdtempSync(join(tmpdir(), 'alarm-'));
  try {
    const compiled = ts.transpileModule(readFileSync(ALARM_MODULE, 'utf8'), { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } });
    writeFileSync(join(dir, 'alarm.mjs'), compiled.outputText);
    writeFileSync(join(dir, 'main.mjs'), `import { armAlarm } from './alarm.mjs';\n${body}`);
    const r = spawnSync(process.execPath, [join(dir, 'main.mjs')], { encoding: 'utf8', timeout: 30_000 });
    return { stdout: r.stdout, status: r.status };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('armAlarm', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('rings once, no earlier than asked', async () => {
    const started = process.hrtime.bigint();
    const rings: number[] = [];
    await new Promise<void>((resolve) => {
      armAlarm(30, () => {
        rings.push(elapsedMs(started));
        resolve();
      });
    });
    // Give a second ring the chance to happen.
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(rings).toHaveLength(1);
    expect(rings[0]).toBeGreaterThanOrEqual(29);
  });

  it('rings in order of their times, whatever order they were armed in', async () => {
    const order: string[] = [];
    await new Promise<void>((resolve) => {
      armAlarm(40, () => {
        order.push('late');
        resolve();
      });
      armAlarm(5, () => order.push('early'));
      armAlarm(20, () => order.push('middle'));
    });
    expect(order).toEqual(['early', 'middle', 'late']);
  });

  it('does not ring once cancelled, and cancelling twice or after the ring does nothing', async () => {
    const ring = vi.fn();
    const alarm = armAlarm(10, ring);
    alarm.cancel();
    alarm.cancel();
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(ring).not.toHaveBeenCalled();

    const rang = vi.fn();
    const late = armAlarm(0, rang);
    await new Promise((resolve) => setTimeout(resolve, 10));
    late.cancel();
    expect(rang).toHaveBeenCalledTimes(1);
  });

  it('rings after the current turn for zero, negative and NaN delays, as a timer would', async () => {
    for (const ms of [0, -5, Number.NaN]) {
      const ring = vi.fn();
      armAlarm(ms, ring);
      expect(ring).not.toHaveBeenCalled();
      await new Promise((resolve) => setTimeout(resolve, 5));
      expect(ring).toHaveBeenCalledTimes(1);
    }
  });

  it("arms none of Node's timers (their first use costs a short-lived process its compilation)", () => {
    const timeout = vi.spyOn(globalThis, 'setTimeout');
    const immediate = vi.spyOn(globalThis, 'setImmediate');
    const ring = vi.fn();
    const alarm = armAlarm(1_000, ring);
    alarm.cancel();
    expect(timeout).not.toHaveBeenCalled();
    expect(immediate).not.toHaveBeenCalled();
  });

  it('never rings for an infinite delay', async () => {
    const ring = vi.fn();
    const alarm = armAlarm(Infinity, ring);
    await new Promise((resolve) => setTimeout(resolve, 20));
    alarm.cancel();
    expect(ring).not.toHaveBeenCalled();
  });
});

describe('armAlarmWith, without Atomics.waitAsync', () => {
  it('falls back to an unref\'d timer that rings once and can be cancelled', async () => {
    const rang = await new Promise<boolean>((resolve) => {
      armAlarmWith(undefined, 5, () => resolve(true));
    });
    expect(rang).toBe(true);
    const ring = vi.fn();
    armAlarmWith(undefined, 5, ring).cancel();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(ring).not.toHaveBeenCalled();
  });

  it('unrefs its timer, so it never keeps the process alive', () => {
    const unref = vi.fn();
    const timeout = vi.spyOn(globalThis, 'setTimeout').mockReturnValue({ unref } as unknown as NodeJS.Timeout);
    armAlarmWith(undefined, 60_000, () => undefined);
    expect(timeout).toHaveBeenCalledTimes(1);
    expect(unref).toHaveBeenCalledTimes(1);
    timeout.mockRestore();
  });
});

describe('armAlarm in a process of its own', () => {
  it('does not keep the process alive: a process with only an alarm pending exits at once, unrung', () => {
    const r = inFreshNode(`armAlarm(600_000, () => console.log('rang')); console.log('armed');`);
    expect(r).toEqual({ stdout: 'armed\n', status: 0 });
  });

  it('rings while something else keeps the process alive', () => {
    const r = inFreshNode(
      `import { createServer } from 'node:net';
       const server = createServer().listen(0, '127.0.0.1');
       armAlarm(20, () => { console.log('rang'); server.close(); });`,
    );
    expect(r).toEqual({ stdout: 'rang\n', status: 0 });
  });
});

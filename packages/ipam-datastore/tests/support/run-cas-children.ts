import { spawn } from 'node:child_process';
import { statSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import type { Datastore } from '@ipamkit/models';
import { expect } from 'vitest';
import type { DatastoreConfig } from '../../src/create-datastore.js';

const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const CAS_COUNTER_CHILD = fileURLToPath(new URL('./cas-counter-child.mjs', import.meta.url));

/** How the counter child increments (see cas-counter-child.mjs). */
export type CounterMode = 'store' | 'transact' | 'optimistic';

export interface ChildResult {
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The sources the children's code path is built from (the etcd and Kubernetes trees are not on it). */
const CHILD_SOURCES = ['src/engine', 'src/memory', 'src/sqlite', 'src/index.ts', 'src/create-datastore.ts', 'src/errors.ts'];

/** Fails clearly when dist/ is missing or older than the sources it runs: the children use the built package. */
export function assertDistIsFresh(): void {
  const newest = (path: string): number =>
    statSync(path).isDirectory() ? Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name)))) : statSync(path).mtimeMs;
  const dist = join(PACKAGE_ROOT, 'dist', 'index.js');
  let built = 0;
  try {
    built = statSync(dist).mtimeMs;
  } catch {
    // missing: reported below
  }
  const src = Math.max(...CHILD_SOURCES.map((p) => newest(join(PACKAGE_ROOT, p))));
  if (built < src) {
    throw new Error(`the child processes import ${dist}, which is missing or older than its sources: run \`npx --no-install tsup\` in packages/ipam-datastore first`);
  }
}

/**
 * Runs `processes` copies of the CAS counter child at once against `config`. Every child is
 * killed if the whole run exceeds `timeoutMs`.
 */
export async function runCasCounterChildren(args: {
  config: DatastoreConfig;
  handleId: string;
  cidr: string;
  processes: number;
  iterations: number;
  timeoutMs: number;
  /** How each increment runs: two store calls (default), one `transact` body, or one on SQLite with `optimisticTransactions`. */
  mode?: CounterMode;
}): Promise<ChildResult[]> {
  const children = Array.from({ length: args.processes }, () =>
    spawn(process.execPath, [CAS_COUNTER_CHILD, JSON.stringify(args.config), args.handleId, args.cidr, String(args.iterations), args.mode ?? 'store'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
  const timer = setTimeout(() => {
    for (const c of children) c.kill('SIGKILL');
  }, args.timeoutMs);
  try {
    return await Promise.all(
      children.map(
        (child) =>
          new Promise<ChildResult>((resolve, reject) => {
            let stdout = '';
            let stderr = '';
            child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
            child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
            child.on('error', reject);
            child.on('close', (exitCode) => resolve({ exitCode, stdout, stderr }));
          }),
      ),
    );
  } finally {
    clearTimeout(timer);
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  }
}

/** How many children, each doing how many increments, on which block of the counter handle. */
export const CAS_COUNTER_RUN = { processes: 8, iterations: 200, cidr: '10.0.0.0/26' } as const;

/**
 * The multi-process acceptance of a backend: `CAS_COUNTER_RUN.processes` children CAS-increment one
 * handle of `ds` through `config` (the same store) at once, and no increment is lost. Closes `ds`.
 */
export async function expectNoLostIncrement(ds: Datastore, config: DatastoreConfig, timeoutMs: number, mode: CounterMode = 'store'): Promise<void> {
  const { processes, iterations, cidr } = CAS_COUNTER_RUN;
  try {
    await ds.handles.create({ handleId: 'counter', block: { [cidr]: 0 }, deleted: false });
    const results = await runCasCounterChildren({ config, handleId: 'counter', cidr, processes, iterations, timeoutMs, mode });
    expect(results.map((r) => [r.exitCode, r.stderr])).toEqual(results.map(() => [0, '']));
    const reported = results.map((r) => (JSON.parse(r.stdout) as { increments: number }).increments);
    expect(reported).toEqual(Array.from({ length: processes }, () => iterations));
    expect((await ds.handles.get('counter')).block[cidr]).toBe(processes * iterations);
  } finally {
    await ds.close();
  }
}

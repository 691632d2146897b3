import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed, sqliteBackend, type TestBackend } from './helpers/backend.js';
import { cniEnv, netConf } from './helpers/cni-call.js';
import { assertBinBuilt, BIN, pluginEnv } from './helpers/spawn-bin.js';

const NON_BLOCKING = fileURLToPath(new URL('./helpers/nonblocking-stdout.cjs', import.meta.url));

/** Runs the .cjs bundle with stdout made non-blocking, and starts reading only after `delayMs`. */
function runWithSlowReader(env: Record<string, string>, stdin: string, delayMs: number): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--require', NON_BLOCKING, BIN], { env: pluginEnv(env), stdio: ['pipe', 'pipe', 'ignore'] });
    const out: Buffer[] = [];
    child.stdout.pause();
    setTimeout(() => {
      child.stdout.on('data', (c: Buffer) => out.push(c));
      child.stdout.resume();
    }, delayMs);
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout: Buffer.concat(out).toString('utf8') }));
    child.stdin.end(stdin);
  });
}

describe('the answer on a non-blocking stdout', () => {
  let b: TestBackend;
  beforeAll(async () => {
    assertBinBuilt();
    b = await sqliteBackend();
    await seed(b.ds);
  });
  afterAll(async () => {
    await b.close();
  });

  it('arrives whole when the reader starts late and the pipe refuses part of it', async () => {
    const routes = Array.from({ length: 5000 }, (_, i) => ({ dst: `10.98.${Math.floor(i / 250)}.${i % 250}/32` }));
    const conf = JSON.stringify(netConf(b.confKeys, { ipam: { type: 'calico-ipam', routes } }));
    const add = await runWithSlowReader(cniEnv({ command: 'ADD', containerId: 'slow-reader' }), conf, 500);
    expect(add.code).toBe(0);
    expect((JSON.parse(add.stdout) as { routes: unknown[] }).routes).toEqual(routes);
  });
});

import { describe, expect, it } from 'vitest';
import { main } from '../src/index.js';

async function sim(argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) } });
  return { code, stdout, stderr };
}

describe('ipamkit-sim run --what-if', () => {
  it('replays strict affinity on SQLite and agrees with the prediction exactly', async () => {
    const run = await sim(['run', '--what-if=--strict-affinity true', '--nodes', '3']);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^what-if replay: --strict-affinity true\npredicted: first failure on (node-\d{3}) after (\d+) pods \(strict-affinity: [^\n]+\)\nreal: {6}first failure on \1 after \2 pods\nagree \(exactly\)\n$/);
    expect(run.code).toBe(0);
  }, 180_000);

  it('replays a disabled pool, where the other pool runs dry, within one block', async () => {
    const run = await sim(['run', '--what-if=--disable-pool replay-a', '--nodes', '3']);
    expect(run.stdout).toContain('(pools-exhausted: ');
    expect(run.stdout).toContain('agree (within 64 pods: one block)');
    expect(run.code).toBe(0);
  }, 180_000);

  it('replays a pods-per-node target and names the same nodes', async () => {
    const run = await sim(['run', '--what-if=--strict-affinity true --pods-per-node 400', '--nodes', '3']);
    expect(run.stdout).toMatch(/unable to reach the target: predicted \[(node-\d{3}(, )?)+\], real \[/);
    expect(run.stdout).toContain('agree');
    expect(run.code).toBe(0);
  }, 180_000);

  it('replays a block cap on a real etcd and agrees exactly', async () => {
    const run = await sim(['run', '--datastore', 'etcd', '--what-if=--strict-affinity true --max-blocks-per-host 2 --add-nodes 1', '--nodes', '3']);
    expect(run.stderr).toBe('');
    expect(run.stdout).toContain('(block-limit: ');
    expect(run.stdout).toContain('agree (exactly)');
    expect(run.code).toBe(0);
  }, 180_000);

  it('refuses a flag it cannot replay and a change the datastore would refuse', async () => {
    expect(await sim(['run', '--what-if=--add-pool -f x.yaml'])).toMatchObject({ code: 2 });
    const conflict = await sim(['run', '--what-if=--max-blocks-per-host 2', '--nodes', '2']);
    expect(conflict.code).toBe(2);
    expect(conflict.stderr).toContain('MaxBlocksPerHost requires StrictAffinity');
  }, 60_000);
});

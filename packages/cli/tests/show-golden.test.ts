import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withEtcd } from '@ipamkit/test-utils';
import type { Datastore } from '@ipamkit/models';
import { FakeClock, openBackend, seedBase, type BackendName } from './fixtures.js';
import { golden } from './golden.js';
import { runCli } from './run-cli.js';

const etcd = withEtcd();

describe.each<BackendName>(['sqlite', 'etcd'])('ipam show on %s', (backend) => {
  let ds: Datastore;
  let cleanup: () => Promise<void>;
  const clock = new FakeClock();

  beforeEach(async () => {
    ({ ds, cleanup } = await openBackend(backend, () => etcd.endpoint));
    await seedBase(ds, clock);
  });
  afterEach(async () => {
    await cleanup();
  });

  it.each([
    ['pool utilization by default', ['ipam', 'show'], 'show-pools.txt'],
    ['every block under its pool with --show-blocks', ['ipam', 'show', '--show-blocks'], 'show-blocks.txt'],
    ['borrowed addresses with --show-borrowed', ['ipam', 'show', '--show-borrowed'], 'show-borrowed.txt'],
    ['the effective configuration with --show-configuration', ['ipam', 'show', '--show-configuration'], 'show-configuration.txt'],
    ['one allocation with --ip', ['ipam', 'show', '--ip', '10.0.0.2'], 'show-ip.txt'],
    ['an unassigned address with --ip', ['ipam', 'show', '--ip', '10.0.0.99'], 'show-ip-free.txt'],
  ])('prints %s', async (_what, argv, file) => {
    const run = await runCli(argv, ds, clock);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(golden(file, run.stdout));
  });

  it('takes the numbers of -o json straight from GetUtilization', async () => {
    const run = await runCli(['ipam', 'show', '--show-blocks', '-o', 'json'], ds, clock);
    expect(run.code).toBe(0);
    const parsed = JSON.parse(run.stdout) as { mode: string; rows: { cidr: string; total: number; inUse: number; reserved: number; free: number }[] };
    expect(parsed.mode).toBe('blocks');
    expect(parsed.rows.slice(0, 2)).toEqual([
      { grouping: 'IP Pool', name: 'pool-a', cidr: '10.0.0.0/24', total: 256, inUse: 5, reserved: 4, free: 247 },
      { grouping: 'Block', cidr: '10.0.0.0/26', total: 64, inUse: 4, reserved: 4, free: 56 },
    ]);
  });

  it('reports an address in cooldown as an error on stderr with status 1', async () => {
    await runCli(['ipam', 'configure', '--ip-cooldown-seconds', '60'], ds, clock);
    expect((await runCli(['ipam', 'release', '--ip', '10.0.0.3'], ds, clock)).code).toBe(0);
    const run = await runCli(['ipam', 'show', '--ip', '10.0.0.3'], ds, clock);
    expect(run).toEqual({ code: 1, stdout: '', stderr: 'address 10.0.0.3 is in cooldown\n' });
  });
});

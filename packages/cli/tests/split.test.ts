import { createDatastore } from '@ipamkit/ipam-datastore';
import type { Datastore } from '@ipamkit/models';
import { beforeEach, describe, expect, it } from 'vitest';
import { splitCidr } from '../src/split/ipam-split.js';
import { FakeClock, seedBase } from './fixtures.js';
import { runCli } from './run-cli.js';

describe('splitCidr', () => {
  it.each([
    ['10.0.0.0/24', 4, ['10.0.0.0/26', '10.0.0.64/26', '10.0.0.128/26', '10.0.0.192/26']],
    ['fd00::/120', 2, ['fd00::/121', 'fd00::80/121']],
    ['10.0.0.0/31', 2, ['10.0.0.0/32', '10.0.0.1/32']],
  ])('splits %s into %i consecutive equal subnets', (cidr, parts, expected) => {
    expect(splitCidr(cidr, parts)).toEqual(expected);
  });
});

describe('ipam split', () => {
  let ds: Datastore;
  const clock = new FakeClock();

  beforeEach(async () => {
    ds = await createDatastore({ type: 'memory' });
    await seedBase(ds, clock);
  });

  it('replaces the pool by enabled children that keep every other field, leaving blocks in place', async () => {
    const blocksBefore = (await ds.blocks.list()).map((b) => b.revision).sort();
    const run = await runCli(['ipam', 'split', '2', '--name', 'pool-a'], ds, clock);
    expect(run).toEqual({
      code: 0,
      stderr: '',
      stdout:
        'IP Pool pool-a was successfully split into 2 smaller pools.\n' +
        'Created split-pool-a-0 with CIDR 10.0.0.0/25.\nCreated split-pool-a-1 with CIDR 10.0.0.128/25.\n' +
        'Please refer to the documentation for final steps.\n',
    });
    const pools = (await ds.ipPools.list()).map(({ revision: _r, uid: _u, ...p }) => p).sort((a, b) => a.name.localeCompare(b.name));
    expect(pools.filter((p) => p.name.startsWith('split-'))).toEqual([
      { name: 'split-pool-a-0', cidr: '10.0.0.0/25', blockSize: 26, nodeSelector: "zone == 'a'", disabled: false },
      { name: 'split-pool-a-1', cidr: '10.0.0.128/25', blockSize: 26, nodeSelector: "zone == 'a'", disabled: false },
    ]);
    expect(pools.some((p) => p.name === 'pool-a')).toBe(false);
    expect((await ds.blocks.list()).map((b) => b.revision).sort()).toEqual(blocksBefore);
    expect((await ds.affinities.list({ host: 'node-a' })).length).toBe(3);
  });

  it.each([
    [['3', '--name', 'pool-a'], 'number to split CIDR into is not a valid power of 2: 3'],
    [['x', '--name', 'pool-a'], 'error reading number to split IP pools into. x is not a valid number'],
    [['2'], 'no name or CIDR provided. Provide a name or CIDR to denote the IP pool to split'],
    [['2', '--cidr', '10.9.0.0/24'], 'unable to find IP pool covering the specified CIDR 10.9.0.0/24'],
    [['2', '--name', 'nope'], 'unable to find IP pool with name nope'],
    [['8', '--cidr', '10.0.0.0/24'], 'IPPool "split-pool-a-0" is invalid: cidr prefix /27 is longer than blockSize 26'],
  ])('refuses %j before touching the pool', async (args, message) => {
    const before = await ds.ipPools.get('pool-a');
    const run = await runCli(['ipam', 'split', ...args], ds, clock);
    // A bad argument is usage (2); a child pool Calico's validation refuses is a failed command (1).
    expect(run.code).toBe(message.startsWith('IPPool ') ? 1 : 2);
    expect(run.stderr.split('\n')[0]).toContain(message);
    const after = await ds.ipPools.get('pool-a');
    expect(after).toEqual(before);
    expect((await ds.ipPools.list()).length).toBe(4);
  });
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createIpamClient } from '@ipamkit/ipam-core';
import { createDatastore } from '@ipamkit/ipam-datastore';
import type { Datastore } from '@ipamkit/models';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { FakeClock } from './fixtures.js';
import { runCli } from './run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'ipamkit-foresight-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function everything(ds: Datastore): Promise<string> {
  const [pools, blocks, affinities, nodes, handles] = await Promise.all([ds.ipPools.list(), ds.blocks.list(), ds.affinities.list(), ds.nodes.list(), ds.handles.list()]);
  return JSON.stringify({ pools, blocks, affinities, nodes, handles }, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
}

describe('ipam runway and what-if', () => {
  let ds: Datastore;
  const clock = new FakeClock();

  beforeEach(async () => {
    ds = await createDatastore({ type: 'memory' });
    await ds.ipPools.create({ name: 'pods', cidr: '10.0.0.0/24', blockSize: 28 });
    await Promise.all(['node-a', 'node-b'].map((name) => ds.nodes.create({ name })));
    await ds.ipamConfig.create({ strictAffinity: true, autoAllocateBlocks: true, maxBlocksPerHost: 2, ipCooldownSeconds: 0 });
    const ipam = createIpamClient({ datastore: ds, clock, windowsHost: false });
    for (let i = 0; i < 20; i += 1) await ipam.autoAssign({ num4: 1, hostname: 'node-a', intendedUse: 'Workload', handleId: `k8s-pod-network.a${i}` });
  });

  it('prints each node\'s runway and the first failure, and exits 0 while every node can allocate', async () => {
    const run = await runCli(['ipam', 'runway', '--rate', '6'], ds, clock);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('First failure: node-a after 24 more pods (in 4h), filling every node in turn: IPv4: no free address in affine blocks, block cap reached (2 of 2)');
    expect(run.stdout).toMatch(/\| node-a \| 2\/2 +\| +12 \| +12 \|/);
    expect(run.stdout).toMatch(/\| node-b \| 0\/2 +\| +0 \| +32 \|/);
    expect(run.stdout).toContain('rate 6 pods/hour from --rate');
  });

  it('writes the report as JSON with exact counts', async () => {
    const run = await runCli(['ipam', 'runway', '-o', 'json'], ds, clock);
    const report = JSON.parse(run.stdout) as { firstFailure: { node: string; afterPods: number }; pools: { available: number }[]; nodes: { node: string; alone: number }[] };
    expect(report.firstFailure).toMatchObject({ node: 'node-a', afterPods: 24 });
    expect(report.pools[0]?.available).toBe(236);
    expect(report.nodes.map((n) => [n.node, n.alone])).toEqual([['node-a', 12], ['node-b', 32]]);
  });

  it('measures the rate from a history file', async () => {
    const history = join(dir, 'history.json');
    writeFileSync(history, JSON.stringify(['2026-12-01T10:00:00Z', '2026-12-01T11:00:00Z', '2026-12-01T12:00:00Z']));
    const run = await runCli(['ipam', 'runway', '--history', history], ds, clock);
    expect(run.stdout).toContain('rate 1 pods/hour from a history of 3 allocations');
    expect(run.stdout).toContain('after 24 more pods (in 24h)');
  });

  it('names the nodes a change leaves unable to allocate, exits 1, and writes nothing', async () => {
    const before = await everything(ds);
    const run = await runCli(['ipam', 'what-if', '--add-nodes', '1', '--node-labels', 'zone=b', '--disable-pool', 'pods'], ds, clock);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('What if: add 1 nodes labelled {"zone":"b"}; disable pods (nothing was written)');
    expect(run.stdout).toContain('Now: first failure on node-a after 24 more pods (block-limit)\nAfter: first failure on node-a after 0 more pods (no-pool)\n');
    expect(run.stdout).toContain(
      'Nodes unable to allocate:\n' +
        '  node-a (0 pods): IPv4: no enabled IPv4 pool selects node node-a for workloads (cannot find a qualified ippool)\n' +
        '  node-b (0 pods): IPv4: no enabled IPv4 pool selects node node-b for workloads (cannot find a qualified ippool)\n' +
        '  what-if-node-1 (0 pods): IPv4: no enabled IPv4 pool selects node what-if-node-1 for workloads (cannot find a qualified ippool)\n',
    );
    expect(await everything(ds)).toBe(before);
  });

  it('fills to --pods-per-node and names who cannot reach it', async () => {
    const run = await runCli(['ipam', 'what-if', '--pods-per-node', '30', '-o', 'json'], ds, clock);
    expect(run.code).toBe(1);
    const result = JSON.parse(run.stdout) as { unableToAllocate: { node: string; pods: number }[] };
    expect(result.unableToAllocate.map((u) => [u.node, u.pods])).toEqual([['node-a', 12]]);
  });

  it('adds a pool from a file and disables one', async () => {
    const file = join(dir, 'pool.yaml');
    writeFileSync(file, 'apiVersion: projectcalico.org/v3\nkind: IPPool\nmetadata:\n  name: more\nspec:\n  cidr: 10.1.0.0/24\n  blockSize: 28\n');
    const run = await runCli(['ipam', 'what-if', '--add-pool', '-f', file, '--disable-pool', 'pods', '-o', 'json'], ds, clock);
    expect(run.stderr).toBe('');
    const result = JSON.parse(run.stdout) as { after: { pools: { pool: string; enabled: boolean }[]; nodes: { node: string; alone: number }[] } };
    expect(result.after.pools.map((p) => [p.pool, p.enabled])).toEqual([['more', true], ['pods', false]]);
    expect(result.after.nodes.map((n) => [n.node, n.alone])).toEqual([['node-a', 32], ['node-b', 32]]);
  });

  it('refuses bad flags with the usage status and a refused change with 1', async () => {
    expect((await runCli(['ipam', 'what-if', '--add-nodes', 'x'], ds, clock)).code).toBe(2);
    expect((await runCli(['ipam', 'what-if', '--add-pool'], ds, clock)).stderr).toContain('--add-pool needs -f <file>');
    expect((await runCli(['ipam', 'runway', '--rate', '1', '--history', 'h'], ds, clock)).code).toBe(2);
    const refused = await runCli(['ipam', 'what-if', '--disable-pool', 'nope'], ds, clock);
    expect(refused).toMatchObject({ code: 1, stderr: 'what-if disables pool nope, which does not exist\n' });
    const conflict = await runCli(['ipam', 'what-if', '--strict-affinity', 'false'], ds, clock);
    expect(conflict.code).toBe(1);
    expect(conflict.stderr).toContain('MaxBlocksPerHost requires StrictAffinity');
  });
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runIpamCommand, type PodInfo } from '@ipamkit/cli';
import { systemClock } from '@ipamkit/ipam-core';
import { createDatastore } from '@ipamkit/ipam-datastore';
import type { Datastore } from '@ipamkit/models';
import { afterAll, describe, expect, it } from 'vitest';
import { finalCheck } from '../src/checks/final-check.js';
import { inProcessDriver, resultAddresses, type CniDriver } from '../src/run/cni-driver.js';

const dir = mkdtempSync(join(tmpdir(), 'ipamkit-migrate-pool-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const NODES = ['node-a', 'node-b', 'node-c'];

interface Pod {
  readonly namespace: string;
  readonly name: string;
  readonly node: string;
  containerId: string;
  ip: string;
}

function netConf(node: string): string {
  return JSON.stringify({
    cniVersion: '1.0.0',
    name: 'k8s-pod-network',
    type: 'calico',
    nodename: node,
    ipam: { type: 'calico-ipam', assign_ipv4: 'true' },
    ipam_lock_file: join(dir, `${node}.lock`),
  });
}

async function cli(ds: Datastore, argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runIpamCommand(argv, {
    datastore: ds,
    clock: systemClock,
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
  });
  return { code, stdout, stderr };
}

async function add(driver: CniDriver, pod: Pod): Promise<void> {
  const out = await driver({ command: 'ADD', containerId: pod.containerId, namespace: pod.namespace, pod: pod.name, netConf: netConf(pod.node) });
  expect(out.exitCode).toBe(0);
  const [ip] = resultAddresses(out.stdout);
  expect(ip).toBeDefined();
  pod.ip = ip ?? '';
}

/** A pod restart as the kubelet does it: DEL of the old sandbox, ADD of a new one. */
async function restart(driver: CniDriver, pod: Pod, generation: number): Promise<void> {
  const del = await driver({ command: 'DEL', containerId: pod.containerId, namespace: pod.namespace, pod: pod.name, netConf: netConf(pod.node) });
  expect(del.exitCode).toBe(0);
  pod.containerId = `${pod.name}-${generation}`;
  await add(driver, pod);
}

async function expectCheckClean(ds: Datastore, pods: readonly Pod[]): Promise<void> {
  const cluster = { pods: pods.map((p): PodInfo => ({ namespace: p.namespace, name: p.name, nodeName: p.node, phase: 'Running', ips: [p.ip] })), services: [] };
  const result = await finalCheck({ datastore: ds, clock: systemClock, cluster });
  expect(result.violations).toEqual([]);
  expect((await cli(ds, ['ipam', 'check'])).code).toBe(0);
}

const inPool = (ip: string, prefix: string): boolean => ip.startsWith(prefix);

describe('ipam migrate-pool on the simulator', () => {
  it('plans, starts, drains through the CNI path, refuses to finish early, then finishes with check clean at every step', async () => {
    const ds = await createDatastore({ type: 'sqlite', path: join(dir, 'ipam.db') });
    try {
      await ds.ipPools.create({ name: 'old', cidr: '10.0.0.0/24', blockSize: 28 });
      for (const name of NODES) await ds.nodes.create({ name });
      const driver = inProcessDriver(ds);
      const pods: Pod[] = [];
      for (let i = 0; i < 12; i += 1) {
        const pod: Pod = { namespace: i % 3 === 0 ? 'db' : 'web', name: `pod-${i}`, node: NODES[i % 3] ?? 'node-a', containerId: `pod-${i}-0`, ip: '' };
        await add(driver, pod);
        pods.push(pod);
      }
      expect(pods.every((p) => inPool(p.ip, '10.0.0.'))).toBe(true);
      await expectCheckClean(ds, pods);

      const poolFile = join(dir, 'new-pool.yaml');
      writeFileSync(poolFile, 'apiVersion: projectcalico.org/v3\nkind: IPPool\nmetadata:\n  name: new\nspec:\n  cidr: 10.1.0.0/24\n  blockSize: 28\n');
      const plan = await cli(ds, ['ipam', 'migrate-pool', 'plan', '--from', 'old', '--to', 'new', '-f', poolFile, '-o', 'json']);
      expect(plan.stderr).toBe('');
      expect(plan.code).toBe(0);
      const planned = JSON.parse(plan.stdout) as { workloads: { pod: string }[]; byNamespace: unknown; fits: boolean; nodes: { node: string; workloads: number; fits: boolean }[] };
      expect(planned.workloads.map((w) => w.pod).sort()).toEqual(pods.map((p) => p.name).sort());
      expect(planned.byNamespace).toEqual([{ namespace: 'db', count: 4 }, { namespace: 'web', count: 8 }]);
      expect(planned.nodes).toEqual(NODES.map((node) => ({ node, workloads: 4, fits: true })));
      await expectCheckClean(ds, pods);

      const start = await cli(ds, ['ipam', 'migrate-pool', 'start', '--from', 'old', '--to', 'new', '-f', poolFile]);
      expect(start.code).toBe(0);
      expect(start.stdout).toContain('Started: created new; disabled old');
      expect(start.stdout).toContain('  db/pod-0 on node-a (');
      expect((await ds.ipPools.get('old')).disabled).toBe(true);
      // Resumable: a second start changes nothing.
      expect((await cli(ds, ['ipam', 'migrate-pool', 'start', '--from', 'old', '--to', 'new'])).stdout).toContain('Started: new already enabled; old already disabled');
      await expectCheckClean(ds, pods);

      const status = async (): Promise<{ phase: string; remaining: number }> =>
        JSON.parse((await cli(ds, ['ipam', 'migrate-pool', 'status', '--from', 'old', '--to', 'new', '-o', 'json'])).stdout) as { phase: string; remaining: number };
      expect(await status()).toMatchObject({ phase: 'draining', remaining: 12 });

      for (const [i, pod] of pods.entries()) {
        if (i === pods.length - 1) break;
        await restart(driver, pod, 1);
        expect(inPool(pod.ip, '10.1.0.')).toBe(true);
        expect((await status()).remaining).toBe(pods.length - 1 - i);
        await expectCheckClean(ds, pods);
      }
      const early = await cli(ds, ['ipam', 'migrate-pool', 'finish', '--from', 'old', '--to', 'new']);
      expect(early.code).toBe(1);
      expect(early.stderr).toBe('pool old still holds 1 allocation (web: 1); restart those pods (see status) and run finish again\n');
      expect((await ds.ipPools.get('old')).name).toBe('old');
      await expectCheckClean(ds, pods);

      const last = pods.at(-1);
      if (last === undefined) throw new Error('no pods');
      await restart(driver, last, 1);
      expect(await status()).toMatchObject({ phase: 'drained', remaining: 0 });
      await expectCheckClean(ds, pods);

      const finish = await cli(ds, ['ipam', 'migrate-pool', 'finish', '--from', 'old', '--to', 'new']);
      expect(finish.stderr).toBe('');
      expect(finish.code).toBe(0);
      expect(finish.stdout).toMatch(/^Finished: released 3 affinities, removed 3 empty blocks and deleted pool old\n$/);
      expect((await ds.ipPools.list()).map((p) => p.name)).toEqual(['new']);
      expect((await ds.blocks.list()).every((b) => b.cidr.startsWith('10.1.'))).toBe(true);
      expect((await ds.affinities.list()).every((a) => a.cidr.startsWith('10.1.'))).toBe(true);
      expect(await status()).toMatchObject({ phase: 'finished', remaining: 0 });
      expect((await cli(ds, ['ipam', 'migrate-pool', 'finish', '--from', 'old', '--to', 'new'])).stdout).toBe('Pool old is already gone: nothing to do.\n');
      await expectCheckClean(ds, pods);
    } finally {
      await ds.close();
    }
  }, 180_000);
});

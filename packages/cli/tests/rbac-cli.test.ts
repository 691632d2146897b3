import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDatastore } from '@ipamkit/ipam-datastore';
import type { Datastore } from '@ipamkit/models';
import { CALICO_API_MODES, deniedRequests, startRoleBoundServer, unjustifiedGrants, type RoleBoundServer } from '@ipamkit/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from './fixtures.js';
import { seedMigrationSource } from './migrate-fixtures.js';
import { runCli } from './run-cli.js';

const MANIFESTS = resolve(fileURLToPath(import.meta.url), '../../../ipam-datastore/manifests');

// RBAC proven by behaviour (design/cli.md, "RBAC"): every command runs against the Kubernetes
// datastore under the manifest's ClusterRole; nothing may be refused, and every grant must be used
// or justified in the manifest.
describe.each(CALICO_API_MODES)('the CLI under its ClusterRole ($name group)', (mode) => {
  let bound: RoleBoundServer;
  let dir: string;
  let ds: Datastore;
  const clock = new FakeClock();

  beforeAll(async () => {
    bound = await startRoleBoundServer({ manifestsDir: MANIFESTS, mode, component: 'cli', options: { initialNamespaces: ['default'] } });
    dir = mkdtempSync(join(tmpdir(), 'cli-rbac-'));
    ds = await createDatastore({ type: 'kubernetes', kubeconfig: bound.server.writeKubeconfig(join(dir, 'role')), apiGroup: mode.apiGroup });
    for (const name of ['node-a', 'node-b']) bound.server.inject({ apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { zone: name.slice(-1) } } });
  });
  afterAll(async () => {
    await ds.close();
    await bound.server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const cli = async (...argv: string[]) => {
    const run = await runCli(argv, ds, clock);
    return { argv: argv.join(' '), code: run.code, stderr: run.stderr };
  };
  // `ipam check` exits 1 because the seeded data has problems (design/cli.md "Exit codes"); nothing is denied.
  const ok = (argv: string) => ({ argv, code: argv.startsWith('ipam check') ? 1 : 0, stderr: '' });

  it('datastore migrate import: a failed import is undone, then the whole document is written', async () => {
    const source = await createDatastore({ type: 'memory' });
    await seedMigrationSource(source, clock);
    const file = join(dir, 'export.json');
    expect((await runCli(['datastore', 'migrate', 'export', '--k8s-node-names', '-f', file], source, clock)).code).toBe(0);
    await source.close();

    expect(await cli('datastore', 'migrate', 'import', '-f', file, '--dry-run')).toEqual(ok(`datastore migrate import -f ${file} --dry-run`));
    // The last create (the IPAM config) fails: everything created before it is deleted again.
    bound.server.failNext({ status: 400, method: 'POST', pathIncludes: mode.name === 'v1' ? '/ipamconfigs' : '/ipamconfigurations' });
    const failed = await cli('datastore', 'migrate', 'import', '-f', file);
    expect({ code: failed.code, stderr: failed.stderr }).toEqual({ code: 1, stderr: expect.stringMatching(/created before it were deleted/) });
    expect(await ds.ipPools.list()).toEqual([]);
    expect(await cli('datastore', 'migrate', 'import', '-f', file)).toEqual(ok(`datastore migrate import -f ${file}`));
    expect((await ds.ipPools.list()).map((p) => p.name).sort()).toEqual(['pool-lb', 'pool-v4', 'pool-v6']);
    expect(deniedRequests(bound.server)).toEqual([]);
  });

  it('every reading command', async () => {
    const cluster = join(dir, 'cluster.json');
    writeFileSync(cluster, JSON.stringify({ pods: [{ namespace: 'default', name: 'web-1', nodeName: 'node-a', phase: 'Running', ips: ['10.0.0.3'] }], services: [] }));
    const nextPool = join(dir, 'pool-v4-next.yaml');
    writeFileSync(nextPool, 'apiVersion: projectcalico.org/v3\nkind: IPPool\nmetadata:\n  name: pool-v4-next\nspec:\n  cidr: 10.9.0.0/24\n');
    const runs = [
      ['ipam', 'show'],
      ['ipam', 'show', '--show-blocks'],
      ['ipam', 'show', '--show-borrowed'],
      ['ipam', 'show', '--show-configuration'],
      ['ipam', 'show', '--ip', '10.0.0.3'],
      ['ipam', 'check', '--show-all-ips', '--cluster-state', cluster],
      ['ipam', 'explain', '--ip', '10.0.0.3', '--cluster-state', cluster],
      ['ipam', 'explain', '--pod', 'default/web-1', '--cluster-state', cluster],
      ['ipam', 'explain', '--node', 'node-a'],
      ['ipam', 'runway'],
      ['ipam', 'what-if', '--add-nodes', '1', '--strict-affinity', 'true'],
      ['ipam', 'migrate-pool', 'plan', '--from', 'pool-v4', '--to', 'pool-v4-next', '-f', nextPool],
      ['ipam', 'migrate-pool', 'status', '--from', 'pool-v4', '--to', 'pool-v4-next'],
      ['datastore', 'migrate', 'export', '-f', join(dir, 'again.json')],
    ];
    const results = [];
    for (const argv of runs) results.push(await cli(...argv));
    expect(results).toEqual(runs.map((argv) => ok(argv.join(' '))));
    expect(deniedRequests(bound.server)).toEqual([]);
  });

  it('every writing command: configure, split, release by address and from a check report', async () => {
    const cluster = join(dir, 'cluster.json');
    const report = join(dir, 'report.json');
    const runs = [
      ['ipam', 'configure', '--ip-cooldown-seconds', '0'],
      ['ipam', 'configure', '--kubevirt-ip-persistence', 'Enabled'],
      ['ipam', 'split', '2', '--name', 'pool-v6'],
      ['ipam', 'release', '--ip', '10.0.0.3'],
      ['ipam', 'check', '--cluster-state', cluster, '-o', report],
      ['ipam', 'release', '--from-report', report, '--force'],
    ];
    const results = [];
    for (const argv of runs) results.push(await cli(...argv));
    expect(results).toEqual(runs.map((argv) => ok(argv.join(' '))));
    expect(deniedRequests(bound.server)).toEqual([]);
  });

  it('migrate-pool start and finish: a new pool from a file, the old one drained and deleted', async () => {
    await ds.ipPools.create({ name: 'drained', cidr: '10.200.0.0/24', blockSize: 26 });
    const file = join(dir, 'next-pool.yaml');
    writeFileSync(file, 'apiVersion: projectcalico.org/v3\nkind: IPPool\nmetadata:\n  name: next\nspec:\n  cidr: 10.201.0.0/24\n  blockSize: 26\n');
    const runs = [
      ['ipam', 'migrate-pool', 'start', '--from', 'drained', '--to', 'next', '-f', file],
      ['ipam', 'migrate-pool', 'finish', '--from', 'drained', '--to', 'next'],
    ];
    const results = [];
    for (const argv of runs) results.push(await cli(...argv));
    expect(results).toEqual(runs.map((argv) => ok(argv.join(' '))));
    expect((await ds.ipPools.list()).map((p) => p.name)).toContain('next');
    expect((await ds.ipPools.list()).map((p) => p.name)).not.toContain('drained');
    expect(deniedRequests(bound.server)).toEqual([]);
  });

  it('leaves no grant of its role unused unless the manifest justifies it', () => {
    expect(unjustifiedGrants(bound.server)).toEqual({ unjustified: [], staleJustifications: [] });
  });
});

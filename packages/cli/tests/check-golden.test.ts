import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseWireJson, type Datastore } from '@ipamkit/models';
import { withEtcd } from '@ipamkit/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ipamCheck, type ClusterState } from '../src/index.js';
import { FakeClock, openBackend, seedCheckFixture, type BackendName } from './fixtures.js';
import { golden } from './golden.js';
import { runCli } from './run-cli.js';

const etcd = withEtcd();

/** One allocation of every classification the fixture plants, with the verdict expected for it. */
const EXPECTED_ALLOCATIONS: [string, string, boolean][] = [
  ['10.0.0.1', 'tunnel', false],
  ['10.0.0.2', 'duplicate', false],
  ['10.0.0.3', 'workload', false],
  ['10.0.0.5', 'completed-pod', true],
  ['10.0.0.6', 'leak', true],
  ['10.0.0.7', 'cooldown', false],
  ['10.0.0.8', 'unverified', false],
  ['10.0.0.130', 'leak', true],
  ['10.0.0.192', 'windows-reserved', false],
  ['10.0.0.255', 'windows-reserved', false],
  ['10.2.0.1', 'load-balancer', false],
  ['10.2.0.2', 'leak', true],
  ['fd00::1', 'tunnel', false],
];

const EXPECTED_FINDINGS: [string, string, boolean][] = [
  ['block-without-affinity', '10.0.0.64/26', true],
  ['invalid-block', '10.1.0.64/26', true],
  ['affinity-without-block', 'host:node-b 10.1.0.128/26', true],
  ['leaked-handle', 'k8s-pod-network.orphan', true],
  ['missing-handle', 'k8s-pod-network.c-db-2', false],
  ['in-use-without-allocation', '10.0.0.9', true],
  ['in-use-outside-pools', '192.168.1.10', true],
];

describe.each<BackendName>(['sqlite', 'etcd'])('ipam check on %s', (backend) => {
  let ds: Datastore;
  let cleanup: () => Promise<void>;
  let cluster: ClusterState;
  let dir: string;
  const clock = new FakeClock();

  beforeEach(async () => {
    ({ ds, cleanup } = await openBackend(backend, () => etcd.endpoint));
    cluster = await seedCheckFixture(ds, clock);
    dir = mkdtempSync(join(tmpdir(), 'ipamkit-check-'));
    writeFileSync(join(dir, 'cluster.json'), JSON.stringify(cluster));
  });
  afterEach(async () => {
    await cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(EXPECTED_ALLOCATIONS)('classifies %s as %s (releasable: %s)', async (ip, classification, releasable) => {
    const result = await ipamCheck({ datastore: ds, clock }, cluster);
    const found = result.allocations.filter((a) => a.ip === ip).map((a) => [a.classification, a.releasable]);
    expect(found).toEqual([[classification, releasable]]);
  });

  it('reports one finding of each structural class', async () => {
    const result = await ipamCheck({ datastore: ds, clock }, cluster);
    expect(result.findings.map((f) => [f.kind, f.subject, f.problem])).toEqual(EXPECTED_FINDINGS);
    expect(result.problems).toBe(11);
  });

  it('prints every allocation and finding with --show-all-ips', async () => {
    const run = await runCli(['ipam', 'check', '--show-all-ips', '--cluster-state', join(dir, 'cluster.json')], ds, clock);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    expect(run.stdout).toBe(golden('check-all.txt', run.stdout));
  });

  it('prints a summary by class and only the problems by default', async () => {
    const run = await runCli(['ipam', 'check', '--cluster-state', join(dir, 'cluster.json')], ds, clock);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe(golden('check-problems.txt', run.stdout));
  });

  it('writes the report with lossless sequence numbers and our verdicts', async () => {
    const file = join(dir, 'report.json');
    const run = await runCli(['ipam', 'check', '--cluster-state', join(dir, 'cluster.json'), '-o', file], ds, clock);
    expect(run.code).toBe(1);
    expect(run.stdout.endsWith(`Report written to ${file}\n`)).toBe(true);
    const report = parseWireJson(readFileSync(file, 'utf8')) as Record<string, unknown> & { allocations: Record<string, Record<string, unknown>[]> };
    expect(Object.keys(report).slice(0, 7)).toEqual([
      'version',
      'clusterGUID',
      'datastoreLocked',
      'clusterInformationRevision',
      'clusterType',
      'allocations',
      'leakedHandles',
    ]);
    expect(report['clusterType']).toBe(`ipamkit,${backend}`);
    expect(report.allocations['10.0.0.6']).toEqual([
      {
        ip: '10.0.0.6',
        handle: 'k8s-pod-network.c-old-pod',
        sequenceNumber: 1767225600000000005n,
        pod: 'old-pod',
        namespace: 'default',
        node: 'node-a',
        creationTimestamp: '2026-01-01 00:00:00 +0000 UTC',
        inUse: false,
        owners: null,
        block: '10.0.0.0/26',
        classification: 'leak',
        reason: 'pod default/old-pod no longer exists',
        releasable: true,
      },
    ]);
    // calicoctl marks Windows-reserved ordinals not in use; we never let a report release them.
    expect(report.allocations['10.0.0.192']?.[0]).toMatchObject({ inUse: true, owners: ['Reserved for Windows'], releasable: false });
  });

  it('marks pod addresses unverified when no pod list is given', async () => {
    const result = await ipamCheck({ datastore: ds, clock }, {});
    const pods = result.allocations.filter((a) => a.pod !== undefined).map((a) => a.classification);
    expect(new Set(pods)).toEqual(new Set(['unverified']));
    const lb = result.allocations.filter((a) => a.ip.startsWith('10.2.0.')).map((a) => a.classification);
    expect(lb).toEqual(['unverified', 'unverified']);
  });
});

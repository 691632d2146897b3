import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createIpamClient } from '@ipamkit/ipam-core';
import { cniHandleId, NotFoundError, type Datastore } from '@ipamkit/models';
import { withEtcd } from '@ipamkit/test-utils';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ipamRelease } from '../src/release/ipam-release.js';
import { FakeClock, openBackend, releaseCurrent, seedCheckFixture, TIMESTAMP, type BackendName } from './fixtures.js';
import { golden } from './golden.js';
import { runCli } from './run-cli.js';

const etcd = withEtcd();

describe.each<BackendName>(['sqlite', 'etcd'])('ipam release --from-report on %s', (backend) => {
  let ds: Datastore;
  let cleanup: () => Promise<void>;
  let dir: string;
  let report: string;
  let clock: FakeClock;

  beforeEach(async () => {
    clock = new FakeClock();
    ({ ds, cleanup } = await openBackend(backend, () => etcd.endpoint));
    const cluster = await seedCheckFixture(ds, clock);
    dir = mkdtempSync(join(tmpdir(), 'ipamkit-release-'));
    writeFileSync(join(dir, 'cluster.json'), JSON.stringify(cluster));
    report = join(dir, 'report.json');
    const run = await runCli(['ipam', 'check', '--cluster-state', join(dir, 'cluster.json'), '-o', report], ds, clock);
    // The fixture plants problems: check exits 1 (design/cli.md "Exit codes").
    expect(run.code).toBe(1);
  });
  afterEach(async () => {
    await cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  /** After the report: 10.0.0.6 is released and, once its cooldown is over, handed to a new pod. */
  async function reallocateAfterReport(): Promise<void> {
    const ipam = createIpamClient({ datastore: ds, clock, windowsHost: false });
    await releaseCurrent(ds, ipam, '10.0.0.6', '10.0.0.0/26');
    clock.advance(601_000);
    await ipam.assignIP({
      ip: '10.0.0.6',
      hostname: 'node-a',
      handleId: cniHandleId('k8s-pod-network', 'c-new'),
      attrs: { namespace: 'default', pod: 'new-pod', node: 'node-a', timestamp: TIMESTAMP },
      intendedUse: 'Workload',
    });
  }

  it('releases the leaks and skips an address re-allocated after the report', async () => {
    await reallocateAfterReport();
    const run = await runCli(['ipam', 'release', '--from-report', report], ds, clock);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(golden('release-from-report.txt', run.stdout));
    const ipam = createIpamClient({ datastore: ds, clock, windowsHost: false });
    // The new owner keeps its address; the real leaks are gone, and so is the leaked handle.
    expect((await ipam.getAssignmentAttributes('10.0.0.6')).activeOwnerAttrs['pod']).toBe('new-pod');
    await expect(ipam.getAssignmentAttributes('10.0.0.5')).rejects.toThrow();
    await expect(ds.handles.get('k8s-pod-network.orphan')).rejects.toBeInstanceOf(NotFoundError);
    // Windows-reserved and cooling-down addresses are never in a release set.
    const check = await runCli(['ipam', 'check', '-o', 'json'], ds, clock);
    const after = JSON.parse(check.stdout) as { allocations: Record<string, { classification: string }[]> };
    expect(after.allocations['10.0.0.192']?.[0]?.classification).toBe('windows-reserved');
  });

  it('skips an address re-allocated between its check and its release (the sequence number guards it)', async () => {
    const stale = await ds.blocks.list();
    await reallocateAfterReport();
    // A view whose block listing predates the re-allocation: only the release's own guard is left.
    const lagging: Datastore = Object.create(ds, {
      blocks: { value: Object.assign(Object.create(ds.blocks) as Datastore['blocks'], { list: () => Promise.resolve(stale) }) },
    }) as Datastore;
    const result = await ipamRelease({ datastore: lagging, clock }, { fromReport: [report] });
    expect(result.ips.map((o) => [o.ip, o.outcome, o.detail])).toEqual([
      ['10.0.0.5', 'released', 'sequence number 1767225600000000004'],
      ['10.0.0.6', 'skipped', 're-allocated since the report (changed while releasing)'],
      ['10.0.0.130', 'released', 'sequence number 1767225600000000000'],
      ['10.2.0.2', 'released', 'sequence number 1767225600000000001'],
    ]);
    const ipam = createIpamClient({ datastore: ds, clock, windowsHost: false });
    expect((await ipam.getAssignmentAttributes('10.0.0.6')).activeOwnerAttrs['pod']).toBe('new-pod');
  });

  it('changes nothing in a dry run and says what it would do', async () => {
    await reallocateAfterReport();
    const before = await ds.blocks.get('10.0.0.0/26');
    const run = await runCli(['ipam', 'release', '--from-report', report, '--dry-run'], ds, clock);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(golden('release-dry-run.txt', run.stdout));
    expect((await ds.blocks.get('10.0.0.0/26')).revision).toBe(before.revision);
    expect((await ds.handles.get('k8s-pod-network.orphan')).handleId).toBe('k8s-pod-network.orphan');
  });

  it('refuses a report written for another pool set, even with --force', async () => {
    await ds.ipPools.create({ name: 'pool-new', cidr: '10.9.0.0/24' });
    const run = await runCli(['ipam', 'release', '--from-report', report, '--force'], ds, clock);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `cluster does not match the provided report (${report}): the IP pools differ from when it was written. Refusing to release\n`,
    );
  });

  it('refuses a stale report', async () => {
    clock.advance(3_601_000);
    const run = await runCli(['ipam', 'release', '--from-report', report], ds, clock);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      'the provided reports are all stale - at least one should be up-to-date. Please generate a new report and try again\n',
    );
  });

  it('refuses a report of another version unless --force, then warns', async () => {
    const other = join(dir, 'other.json');
    writeFileSync(other, readFileSync(report, 'utf8').replace('"version": "0.1.0"', '"version": "0.0.9"'));
    const refused = await runCli(['ipam', 'release', '--from-report', other, '--dry-run'], ds, clock);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(`the provided report (${other}) was produced using a different version (0.0.9) of ipamkit. Refusing to release\n`);
    const forced = await runCli(['ipam', 'release', '--from-report', other, '--dry-run', '--force'], ds, clock);
    expect(forced.code).toBe(0);
    expect(forced.stdout.split('\n')[0]).toBe('WARNING: Report was produced using a different version of ipamkit. Ignoring due to --force option');
  });
});

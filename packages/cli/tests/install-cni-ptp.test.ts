import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatastore } from '@ipamkit/ipam-datastore';
import type { Datastore } from '@ipamkit/models';
import { eth0Ipv4Addresses, runDebianPtp } from '@ipamkit/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertPluginBuilt, CNI_DIST, runInstallCni } from './install-cni-helpers.js';

async function allocationHandles(ds: Datastore): Promise<string[]> {
  return (await ds.handles.list()).map((h) => h.handleId);
}

describe("install-cni, then Debian's ptp plugin with the written conflist allocates through the installed executable", () => {
  const netns = `ipamkit-install-${process.pid}`;
  let root: string;
  let binDir: string;
  let netDir: string;
  let dbPath: string;

  beforeAll(async () => {
    assertPluginBuilt();
    root = mkdtempSync(join(tmpdir(), 'ipamkit-install-ptp-'));
    binDir = join(root, 'opt/cni/bin');
    netDir = join(root, 'etc/cni/net.d');
    dbPath = join(root, 'ipam.db');
    const run = await runInstallCni(['--datastore', 'sqlite', '--sqlite-path', dbPath, 'install-cni', '--bin-dir', binDir, '--net-dir', netDir, '--plugin-dir', CNI_DIST, '--service-account-dir', join(root, 'no-sa'), '--node-name', 'node-a']);
    expect(run).toMatchObject({ code: 0, stderr: '' });
    // A pool for the node to allocate from, as an operator would create it.
    const ds = await createDatastore({ type: 'sqlite', path: dbPath });
    try {
      await ds.ipPools.create({ name: 'pool-1', cidr: '10.40.0.0/24', blockSize: 26 });
    } finally {
      await ds.close();
    }
    execFileSync('ip', ['netns', 'add', netns]);
  });

  afterAll(() => {
    try {
      execFileSync('ip', ['netns', 'del', netns]);
    } catch {
      // Already gone.
    }
    rmSync(root, { recursive: true, force: true });
  });

  it('ADD puts an address from the pool on eth0 and records it; DEL removes it and releases it', async () => {
    const list = JSON.parse(readFileSync(join(netDir, '10-calico.conflist'), 'utf8')) as { cniVersion: string; name: string; plugins: Record<string, unknown>[] };
    const plugin = list.plugins[0];
    if (plugin === undefined) throw new Error('the written conflist has no plugin');
    // What a runtime hands the first plugin of a conflist: its object plus the list's name and version.
    const conf = JSON.stringify({ ...plugin, cniVersion: list.cniVersion, name: list.name, ipam: { ...(plugin.ipam as object), ipam_lock_file: join(root, 'ipam.lock') } });
    const env = { CNI_CONTAINERID: 'ptp-installed-1', CNI_NETNS: `/var/run/netns/${netns}`, CNI_IFNAME: 'eth0', CNI_PATH: binDir };

    const add = await runDebianPtp({ ...env, CNI_COMMAND: 'ADD' }, conf);
    expect(add.code, add.stderr).toBe(0);
    const result = JSON.parse(add.stdout) as { ips: { address: string; gateway: string }[] };
    expect(result.ips).toEqual([{ interface: 1, address: expect.stringMatching(/^10\.40\.0\.\d+\/26$/) as string, gateway: '169.254.1.1' }]);
    expect(eth0Ipv4Addresses(netns)).toEqual([result.ips[0]?.address]);
    const ds = await createDatastore({ type: 'sqlite', path: dbPath });
    try {
      expect(await allocationHandles(ds)).toEqual(['k8s-pod-network.ptp-installed-1']);
      const del = await runDebianPtp({ ...env, CNI_COMMAND: 'DEL' }, conf);
      expect(del.code).toBe(0);
      expect(eth0Ipv4Addresses(netns)).toEqual([]);
      expect(await allocationHandles(ds)).toEqual([]);
    } finally {
      await ds.close();
    }
  }, 120_000);
});

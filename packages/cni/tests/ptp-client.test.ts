import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eth0Ipv4Addresses, runDebianPtp } from '@ipamkit/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allocations, seed, sqliteBackend, type TestBackend } from './helpers/backend.js';
import { assertBinBuilt, BIN, SEA } from './helpers/spawn-bin.js';

/** How each shipped form gets into a CNI bin directory as `calico-ipam`. */
const INSTALLS = [
  {
    name: 'the single executable',
    // A link to the built executable: it finds better_sqlite3.node beside its real path.
    install: (cniPath: string) => symlinkSync(SEA, join(cniPath, 'calico-ipam')),
  },
  {
    name: 'the .cjs bundle',
    // A launcher for the bundle, run by this machine's node.
    install: (cniPath: string) => {
      writeFileSync(join(cniPath, 'calico-ipam'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
      chmodSync(join(cniPath, 'calico-ipam'), 0o755);
    },
  },
];

describe.each(INSTALLS)("Debian's ptp plugin delegating IPAM to $name", ({ install }) => {
  const netns = `ipamkit-cni-${process.pid}`;
  let b: TestBackend;
  let cniPath: string;

  beforeAll(async () => {
    assertBinBuilt();
    b = await sqliteBackend();
    await seed(b.ds);
    cniPath = join(b.dir, 'cni-bin');
    mkdirSync(cniPath);
    install(cniPath);
    execFileSync('ip', ['netns', 'add', netns]);
  });

  afterAll(async () => {
    // Deleting the namespace destroys eth0 and with it the host end of the veth pair.
    try {
      execFileSync('ip', ['netns', 'del', netns]);
    } catch {
      // Already gone.
    }
    await b.close();
  });

  it('ADD puts the allocated address on the interface and DEL removes it and releases the allocation', async () => {
    const conf = JSON.stringify({
      cniVersion: '1.0.0',
      name: 'ptp-net',
      type: 'ptp',
      ipMasq: false,
      nodename: 'node-a',
      ...b.confKeys,
      // ptp needs a gateway and must not be handed Calico's per-address routes (design/cni.md, "Results").
      ipam: { type: 'calico-ipam', gateways: ['169.254.1.1'], routes: [] },
    });
    const env = { CNI_CONTAINERID: 'ptp-1', CNI_NETNS: `/var/run/netns/${netns}`, CNI_IFNAME: 'eth0', CNI_PATH: cniPath };
    const add = await runDebianPtp({ ...env, CNI_COMMAND: 'ADD' }, conf);
    expect(add.code).toBe(0);
    const result = JSON.parse(add.stdout) as { ips: { address: string; gateway: string }[] };
    expect(result.ips).toEqual([{ interface: 1, address: expect.stringMatching(/^10\.40\.0\.\d+\/26$/) as string, gateway: '169.254.1.1' }]);
    expect(eth0Ipv4Addresses(netns)).toEqual([result.ips[0]!.address]);
    expect(await allocations(b.ds)).toEqual([expect.stringMatching(/^ptp-net\.ptp-1=/)]);

    const del = await runDebianPtp({ ...env, CNI_COMMAND: 'DEL' }, conf);
    expect(del.code).toBe(0);
    expect(eth0Ipv4Addresses(netns)).toEqual([]);
    expect(await allocations(b.ds)).toEqual([]);
  }, 120_000);
});

import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allocations, seed, sqliteBackend, type TestBackend } from './helpers/backend.js';
import { assertBinBuilt, BIN, pluginEnv, SEA, type BinResult } from './helpers/spawn-bin.js';

const PTP = '/usr/lib/cni/ptp';

function runPtp(env: Record<string, string>, stdin: string): Promise<BinResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(PTP, [], { env: pluginEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
    child.stdin.end(stdin);
  });
}

function containerAddresses(netns: string): string[] {
  const text = execFileSync('ip', ['-n', netns, '-j', 'addr', 'show'], { encoding: 'utf8' });
  const links = JSON.parse(text) as { ifname: string; addr_info: { family: string; local: string; prefixlen: number }[] }[];
  return links.filter((l) => l.ifname === 'eth0').flatMap((l) => l.addr_info.filter((a) => a.family === 'inet').map((a) => `${a.local}/${a.prefixlen}`));
}

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
    const add = await runPtp({ ...env, CNI_COMMAND: 'ADD' }, conf);
    expect(add.code).toBe(0);
    const result = JSON.parse(add.stdout) as { ips: { address: string; gateway: string }[] };
    expect(result.ips).toEqual([{ interface: 1, address: expect.stringMatching(/^10\.40\.0\.\d+\/26$/) as string, gateway: '169.254.1.1' }]);
    expect(containerAddresses(netns)).toEqual([result.ips[0]!.address]);
    expect(await allocations(b.ds)).toEqual([expect.stringMatching(/^ptp-net\.ptp-1=/)]);

    const del = await runPtp({ ...env, CNI_COMMAND: 'DEL' }, conf);
    expect(del.code).toBe(0);
    expect(containerAddresses(netns)).toEqual([]);
    expect(await allocations(b.ds)).toEqual([]);
  }, 120_000);
});

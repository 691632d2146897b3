import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allocations, seed, sqliteBackend, type TestBackend } from './helpers/backend.js';
import { cniEnv, netConf } from './helpers/cni-call.js';
import { assertBinBuilt, SEA, spawnCollect } from './helpers/spawn-bin.js';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));

/** The shell block of the README's "Install" section, as a user would paste it. */
function readmeInstallSteps(): string {
  const readme = readFileSync(join(PACKAGE_DIR, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Install'));
  const block = /```bash\n([\s\S]*?)```/.exec(section)?.[1];
  if (block === undefined) throw new Error('README.md has no bash block under "## Install"');
  return block;
}

/** Exactly the environment a runtime gives a plugin: the CNI_* variables, no PATH, no HOME. */
function bareRun(executable: string, command: 'ADD' | 'DEL', conf: string, cwd: string) {
  return spawnCollect(executable, [], { ...cniEnv({ command, containerId: 'installed-1' }) }, conf, { cwd });
}

describe('the README install steps, in a temp root', () => {
  let b: TestBackend;
  let root: string;
  beforeAll(async () => {
    assertBinBuilt();
    b = await sqliteBackend();
    await seed(b.ds);
    root = mkdtempSync(join(tmpdir(), 'ipamkit-install-'));
  });
  afterAll(async () => {
    rmSync(root, { recursive: true, force: true });
    await b.close();
  });

  it('copy the executable and the addon into opt/cni/bin, and ADD and DEL work from there alone', async () => {
    // No node_modules anywhere above the install: the executable must bring everything itself.
    for (let dir = root; dir !== dirname(dir); dir = dirname(dir)) expect(existsSync(join(dir, 'node_modules'))).toBe(false);
    const steps = readmeInstallSteps().replaceAll('/opt/cni/bin', join(root, 'opt/cni/bin'));
    execFileSync('bash', ['-euc', steps], { cwd: PACKAGE_DIR });
    const installed = join(root, 'opt/cni/bin/calico-ipam');

    const conf = JSON.stringify(netConf(b.confKeys));
    const add = await bareRun(installed, 'ADD', conf, root);
    expect(add.code).toBe(0);
    expect((JSON.parse(add.stdout) as { ips: { address: string }[] }).ips).toEqual([{ address: expect.stringMatching(/^10\.40\.0\.\d+\/26$/) as string }]);
    expect(await allocations(b.ds)).toEqual([expect.stringMatching(/^k8s-pod-network\.installed-1=/)]);

    expect(await bareRun(installed, 'DEL', conf, root)).toMatchObject({ code: 0, stdout: '' });
    expect(await allocations(b.ds)).toEqual([]);
  });

  it('without the addon beside it, an ADD fails with an error naming the missing file and allocates nothing', async () => {
    const lonely = join(root, 'no-addon');
    mkdirSync(lonely);
    copyFileSync(SEA, join(lonely, 'calico-ipam'));
    execFileSync('chmod', ['0755', join(lonely, 'calico-ipam')]);
    const add = await bareRun(join(lonely, 'calico-ipam'), 'ADD', JSON.stringify(netConf(b.confKeys)), root);
    expect(add.code).toBe(1);
    const error = JSON.parse(add.stdout) as { code: number; msg: string };
    expect(error.msg).toContain(join(lonely, 'better_sqlite3.node'));
    expect(await allocations(b.ds)).toEqual([]);
  });
});

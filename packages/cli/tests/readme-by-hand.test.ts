import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createDatastore } from '@ipamkit/ipam-datastore';
import { afterAll, describe, expect, it } from 'vitest';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const HEADING = '## Run the plugin by hand';
const run = promisify(execFile);

/** The first ```bash block under the README's "Run the plugin by hand" heading, as it stands. */
function byHandBlock(): string {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const at = readme.indexOf(`\n${HEADING}\n`);
  if (at < 0) throw new Error(`README.md has no "${HEADING}" section`);
  const next = readme.indexOf('\n## ', at + HEADING.length + 2);
  const section = readme.slice(at, next < 0 ? undefined : next);
  const block = /```bash\n([\s\S]*?)\n```/.exec(section)?.[1];
  if (block === undefined) throw new Error(`the "${HEADING}" section has no bash block`);
  return block;
}

describe('the README sequence: create a pool and a node with the CLI, then ADD and DEL with the plugin', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'ipamkit-readme-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('runs as written on SQLite: the plugin hands out an address of the pool and releases it', async () => {
    for (const bin of ['packages/cli/dist/bin.js', 'packages/cni/dist/calico-ipam.cjs']) {
      expect(existsSync(join(REPO, bin)), `${bin} must be built first (npm run build)`).toBe(true);
    }
    // TMPDIR keeps the block's `mktemp -d` inside this test's directory.
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmp, TMPDIR: tmp };
    const { stdout } = await run('bash', ['-euo', 'pipefail', '-c', byHandBlock()], { cwd: REPO, env, timeout: 120_000 });
    expect(stdout).toMatch(/^Successfully applied 2 resource\(s\)$/m);
    const address = /"address": "([^"]+)"/.exec(stdout)?.[1];
    expect(address, 'the ADD printed a CNI result with an address').toMatch(/^\d+\.\d+\.\d+\.\d+\/\d+$/);
    // ipam show, between ADD and DEL, counted the one address in the pool the CLI created.
    expect(stdout).toMatch(/\| IP Pool +\| [0-9./]+ +\| +\d+ \| +1 \(\d+%\) \|/);

    const dirs = readdirSync(tmp).filter((d) => existsSync(join(tmp, d, 'ipam.db')));
    expect(dirs).toHaveLength(1);
    const ds = await createDatastore({ type: 'sqlite', path: join(tmp, dirs[0] ?? '', 'ipam.db'), readonly: true });
    try {
      expect((await ds.ipPools.list()).length).toBe(1);
      expect((await ds.nodes.list()).map((n) => n.name)).toHaveLength(1);
      // The DEL at the end released the address: no handle is left.
      expect(await ds.handles.list()).toEqual([]);
    } finally {
      await ds.close();
    }
  });
});

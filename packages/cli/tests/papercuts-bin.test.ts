import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, openSync, closeSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDatastore } from '@ipamkit/ipam-datastore';
import { cniHandleId } from '@ipamkit/models';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock, seedBase, seedCheckFixture } from './fixtures.js';

// One bin-level test per papercut of design/cli.md "Exit codes" and "Opening the datastore": the
// built `ipamkit` is spawned as an operator would run it.

const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'bin.js');

interface Run {
  readonly status: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function ipamkit(args: readonly string[], env: NodeJS.ProcessEnv = {}): Run {
  const result = spawnSync(process.execPath, [BIN, ...args], {
    encoding: 'utf8',
    timeout: 60_000,
    // No HOME: the kubernetes default must not find a developer's ~/.kube/config.
    env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent', ...env },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const sqlite = (path: string): string[] => ['--datastore', 'sqlite', '--sqlite-path', path];

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('the built ipamkit bin: papercuts', () => {
  let dir: string;
  /** Pools, nodes and allocations made through the core: nothing wrong with it. */
  let clean: string;
  /** The check fixture: leaks, a duplicate, structural findings. */
  let problems: string;
  let problemCluster: ClusterFile;
  interface ClusterFile {
    readonly pods: unknown[];
  }

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'ipamkit-papercuts-'));
    clean = join(dir, 'clean.db');
    problems = join(dir, 'problems.db');
    const clock = new FakeClock();
    const a = await createDatastore({ type: 'sqlite', path: clean });
    await seedBase(a, clock);
    await a.close();
    const b = await createDatastore({ type: 'sqlite', path: problems });
    problemCluster = (await seedCheckFixture(b, clock)) as ClusterFile;
    await b.close();
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  describe('a missing datastore', () => {
    it('read-only commands refuse a missing SQLite file with exit 3 and create nothing', () => {
      const typo = join(dir, 'typo.db');
      for (const args of [['ipam', 'show'], ['ipam', 'check'], ['ipam', 'explain', '--node', 'x'], ['datastore', 'migrate', 'export'], ['ipam', 'configure', '--ip-cooldown-seconds', '5']]) {
        expect(ipamkit([...sqlite(typo), ...args])).toEqual({
          status: 3,
          stdout: '',
          stderr: `no ipamkit database at ${typo}: check --sqlite-path; only create, apply, install-cni and datastore migrate import make a new one\n`,
        });
      }
      expect(existsSync(typo)).toBe(false);
    });

    it('a path in a missing directory names the directory, not a raw ENOENT', () => {
      const run = ipamkit([...sqlite('/no/such/dir/x.db'), 'ipam', 'show']);
      expect(run).toEqual({
        status: 3,
        stdout: '',
        stderr: 'no ipamkit database at /no/such/dir/x.db (directory /no/such/dir does not exist): check --sqlite-path; only create, apply, install-cni and datastore migrate import make a new one\n',
      });
      const importing = ipamkit([...sqlite('/no/such/dir/x.db'), 'datastore', 'migrate', 'import', '-f', join(dir, 'missing.json')]);
      expect(importing).toEqual({
        status: 3,
        stdout: '',
        stderr: 'cannot create the ipamkit database at /no/such/dir/x.db: directory /no/such/dir does not exist (--sqlite-path)\n',
      });
    });

    it('datastore migrate import may create the file', () => {
      const exported = join(dir, 'export.json');
      expect(ipamkit([...sqlite(clean), 'datastore', 'migrate', 'export', '-f', exported]).status).toBe(0);
      const target = join(dir, 'imported.db');
      const run = ipamkit([...sqlite(target), 'datastore', 'migrate', 'import', '-f', exported]);
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(existsSync(target)).toBe(true);
    });
  });

  describe('exit codes', () => {
    it('0: a clean datastore checks out', () => {
      const run = ipamkit([...sqlite(clean), 'ipam', 'check']);
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(run.stdout).toMatch(/found 0 problems\.\n$/);
    });

    it('1: check found problems', () => {
      const cluster = join(dir, 'cluster.json');
      writeFileSync(cluster, JSON.stringify(problemCluster));
      const run = ipamkit([...sqlite(problems), 'ipam', 'check', '--cluster-state', cluster]);
      expect(run.stderr).toBe('');
      expect(run.status).toBe(1);
      expect(run.stdout).toMatch(/found 11 problems\.\n$/);
    });

    it.each([
      [['ipam', 'show', '--bogus'], "error: unknown option '--bogus'\n"],
      [['ipam', 'frobnicate'], "error: unknown command 'frobnicate'\n"],
      [['ipam', 'show', '--ip', '10.0.0.300'], 'invalid IP address specified: 10.0.0.300\n'],
    ])('2: usage %j', (args, stderr) => {
      expect(ipamkit([...sqlite(clean), ...args])).toEqual({ status: 2, stdout: '', stderr });
    });

    it('2: no datastore configured names --datastore and DATASTORE_TYPE', () => {
      const run = ipamkit(['ipam', 'show']);
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(/^no datastore configured: choose one with --datastore \(etcd, kubernetes, sqlite\) or DATASTORE_TYPE; /);
      const bogus = ipamkit(['ipam', 'show'], { DATASTORE_TYPE: 'bogus' });
      expect(bogus).toEqual({ status: 2, stdout: '', stderr: 'DATASTORE_TYPE must be one of etcdv3, kubernetes, sqlite, memory; got "bogus" (or choose with --datastore)\n' });
    });

    it('3: unreachable etcd names the endpoint and the cause, with no stack trace', async () => {
      const endpoint = `http://127.0.0.1:${await closedPort()}`;
      const run = ipamkit(['--datastore', 'etcd', '--etcd-endpoints', endpoint, 'ipam', 'show']);
      expect(run.status).toBe(3);
      expect(run.stdout).toBe('');
      expect(run.stderr).toContain(endpoint);
      expect(run.stderr).toContain('ECONNREFUSED');
      expect(run.stderr).not.toMatch(/circuit breaker|\n\s+at /);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
    });
  });

  describe('EPIPE', () => {
    it('a reader that closes stdout early ends the command quietly with status 0', async () => {
      const child = spawn(process.execPath, [BIN, ...sqlite(problems), 'ipam', 'check', '--show-all-ips', '-o', 'json'], {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { PATH: process.env.PATH ?? '' },
      });
      // Close the read end before the bin has written anything: its first write meets EPIPE.
      child.stdout.destroy();
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const status = await new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      expect({ status, stderr }).toEqual({ status: 0, stderr: '' });
    });

    it('`| head -1` sees the first line and no error', () => {
      const run = spawnSync('bash', ['-c', `"${process.execPath}" "${BIN}" --datastore sqlite --sqlite-path "${problems}" ipam check --show-all-ips | head -1; exit "\${PIPESTATUS[0]}"`], {
        encoding: 'utf8',
        timeout: 60_000,
        env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent' },
      });
      expect(run.stdout).toBe('Checking IPAM for inconsistencies...\n');
      expect(run.stderr).toBe('');
      // 1 if the whole report fitted in the pipe before head left (problems found), 0 after EPIPE.
      expect([0, 1]).toContain(run.status);
    });
  });

  describe('ipam check', () => {
    it('reports a handle whose count drifted from the blocks, and exits 1', async () => {
      const drifted = join(dir, 'drifted.db');
      copyFileSync(clean, drifted);
      const ds = await createDatastore({ type: 'sqlite', path: drifted });
      const handle = await ds.handles.get(cniHandleId('k8s-pod-network', 'c-web-1'));
      await ds.handles.update({ ...handle, block: { '10.0.0.0/26': 5 } });
      await ds.close();
      const run = ipamkit([...sqlite(drifted), 'ipam', 'check']);
      expect(run.status).toBe(1);
      expect(run.stdout).toMatch(/\| handle-drift +\| +1 \| +1 \|/);
      expect(run.stdout).toContain('| handle-drift | k8s-pod-network.c-web-1 | handle counts 5 in 10.0.0.0/26 where the block holds 1 |');
    });

    it('runs PRAGMA quick_check on SQLite and reports a corrupted page as an integrity finding', () => {
      const corrupt = join(dir, 'corrupt.db');
      copyFileSync(clean, corrupt);
      // Page 13 is the root of the meta table (the compacted revision), which only watches read
      // (check reads the change log itself, where rows keep their values): only quick_check sees it.
      const fd = openSync(corrupt, 'r+');
      writeSync(fd, Buffer.alloc(64, 0xff), 0, 64, 12 * 4096);
      closeSync(fd);
      const run = ipamkit([...sqlite(corrupt), 'ipam', 'check']);
      expect(run.status).toBe(1);
      expect(run.stdout).toMatch(/\| integrity +\| +\d+ \| +\d+ \|/);
      expect(run.stdout).toContain(`| integrity | ${corrupt} | PRAGMA quick_check: `);
      expect(ipamkit([...sqlite(clean), 'ipam', 'check']).stdout).not.toContain('integrity');
    });

    it('when the damage stops the read, exits 3 with the quick_check result in the message', () => {
      const corrupt = join(dir, 'corrupt-blocks.db');
      copyFileSync(clean, corrupt);
      // Page 7 is the root of the blocks table (schema order of src/sqlite/schema.ts in ipam-datastore).
      const fd = openSync(corrupt, 'r+');
      writeSync(fd, Buffer.alloc(64, 0xff), 0, 64, 6 * 4096);
      closeSync(fd);
      const run = ipamkit([...sqlite(corrupt), 'ipam', 'check']);
      expect(run.status).toBe(3);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/^sqlite datastore failed \(SQLITE_CORRUPT\): .*; PRAGMA quick_check: .+\n$/);
    });

    it('without cluster state prints a summary count of unverified allocations, and the rows only with --show-all-ips', () => {
      const summary = ipamkit([...sqlite(clean), 'ipam', 'check']);
      expect(summary.stdout).toMatch(/\| unverified +\| +6 \| +0 \|/);
      expect(summary.stdout).not.toContain('allocation carries no pod or namespace attribute');
      expect(summary.stdout).not.toMatch(/\| 10\.0\.0\.2 /);
      expect(summary.stdout).toContain('--show-all-ips lists them');
      const all = ipamkit([...sqlite(clean), 'ipam', 'check', '--show-all-ips']);
      expect(all.status).toBe(0);
      expect(all.stdout).toMatch(/\| 10\.0\.0\.2 +\| k8s-pod-network\.c-web-1 .*\| unverified /);
      expect(all.stdout.split('\n').filter((l) => / unverified +\| no /.test(l))).toHaveLength(6);
    });
  });

  describe('release --from-report', () => {
    it('refuses a report made from an empty cluster state unless --allow-empty-cluster', () => {
      const copy = join(dir, 'guard.db');
      copyFileSync(problems, copy);
      const empty = join(dir, 'empty-cluster.json');
      writeFileSync(empty, JSON.stringify({ pods: [], services: [] }));
      const report = join(dir, 'empty-report.json');
      expect(ipamkit([...sqlite(copy), 'ipam', 'check', '--cluster-state', empty, '-o', report]).status).toBe(1);
      const refused = ipamkit([...sqlite(copy), 'ipam', 'release', '--from-report', report]);
      expect(refused.status).toBe(1);
      expect(refused.stdout).toBe('');
      expect(refused.stderr).toMatch(/^the provided report \(.*empty-report\.json\) was made from a cluster state with no pods but would release \d+ addresses; .*--allow-empty-cluster/);
      const allowed = ipamkit([...sqlite(copy), 'ipam', 'release', '--from-report', report, '--allow-empty-cluster', '--dry-run']);
      expect(allowed.stderr).toBe('');
      expect(allowed.status).toBe(0);
      expect(allowed.stdout).toContain('10.0.0.3');
    });

    it('refuses a report judged against fewer pods than it would free', () => {
      const copy = join(dir, 'guard-few.db');
      copyFileSync(problems, copy);
      const few = join(dir, 'few-cluster.json');
      writeFileSync(few, JSON.stringify({ pods: problemCluster.pods.slice(0, 1), services: [] }));
      const report = join(dir, 'few-report.json');
      ipamkit([...sqlite(copy), 'ipam', 'check', '--cluster-state', few, '-o', report]);
      const refused = ipamkit([...sqlite(copy), 'ipam', 'release', '--from-report', report, '--dry-run']);
      expect(refused.status).toBe(1);
      expect(refused.stderr).toMatch(/with only 1 pods but would release \d+ addresses/);
    });
  });

  it('split with an invalid CIDR says the CIDR is invalid, before opening anything', () => {
    expect(ipamkit([...sqlite(join(dir, 'never.db')), 'ipam', 'split', '4', '--cidr', '10.244.0.0/33'])).toEqual({
      status: 2,
      stdout: '',
      stderr: '--cidr 10.244.0.0/33 is not a valid CIDR (invalid CIDR "10.244.0.0/33": prefix length exceeds 32)\n',
    });
    expect(existsSync(join(dir, 'never.db'))).toBe(false);
  });
});

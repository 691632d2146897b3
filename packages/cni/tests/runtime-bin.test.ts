import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startKubeApiServer } from '@ipamkit/test-utils';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { allocations, seed, sqliteBackend, type TestBackend } from './helpers/backend.js';
import { cniEnv, netConf } from './helpers/cni-call.js';
import { assertBinBuilt, BIN, pluginEnv } from './helpers/spawn-bin.js';

interface Answer {
  code: number | null;
  json: { code?: number; msg?: string; ips?: unknown[] } | undefined;
  stderr: string;
  ms: number;
}

interface Running {
  child: ChildProcess;
  answer: Promise<Answer>;
  /** Resolves once stderr has printed `text`. */
  printed(text: string): Promise<void>;
}

/** Spawns the built plugin as a runtime does; `umask0` runs it under umask 0. */
function start(env: Record<string, string>, stdin: string, options: { umask0?: boolean } = {}): Running {
  const started = performance.now();
  const child = options.umask0 === true ? spawn('/bin/sh', ['-c', 'umask 0 && exec "$0" "$@"', process.execPath, BIN], { env: pluginEnv(env) }) : spawn(process.execPath, [BIN], { env: pluginEnv(env) });
  const out: Buffer[] = [];
  let stderr = '';
  const watchers: { text: string; resolve: () => void }[] = [];
  child.stdout.on('data', (c: Buffer) => out.push(c));
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString('utf8');
    for (const w of watchers.filter((x) => stderr.includes(x.text))) w.resolve();
  });
  child.stdin.on('error', () => undefined);
  child.stdin.end(stdin);
  const answer = new Promise<Answer>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      const text = Buffer.concat(out).toString('utf8');
      resolve({ code, json: text === '' ? undefined : (JSON.parse(text) as Answer['json']), stderr, ms: performance.now() - started });
    });
  });
  return {
    child,
    answer,
    printed: (text) => (stderr.includes(text) ? Promise.resolve() : new Promise((resolve) => watchers.push({ text, resolve }))),
  };
}

const run = (env: Record<string, string>, stdin: string, options: { umask0?: boolean } = {}) => start(env, stdin, options).answer;

/** The longest run of `filler` in `text`: how much of a filler input an answer repeats. */
function echoed(text: string, filler: string): number {
  return Math.max(0, ...(text.match(new RegExp(`${filler}+`, 'g')) ?? []).map((m) => m.length));
}

/** A TCP port that accepts connections and never answers: an etcd that hangs. */
async function blackHole(): Promise<{ endpoint: string; close: () => Promise<void> }> {
  const sockets: Socket[] = [];
  const server: Server = createServer((s) => sockets.push(s));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        sockets.forEach((s) => s.destroy());
        server.close(() => resolve());
      }),
  };
}

let b: TestBackend;
let dir: string;
beforeAll(() => {
  assertBinBuilt();
});
beforeEach(async () => {
  b = await sqliteBackend();
  await seed(b.ds);
  dir = mkdtempSync(join(tmpdir(), 'ipamkit-cni-rt-'));
});
afterEach(async () => {
  await b.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('the host lock, across plugin processes', () => {
  it('blocks while a live plugin holds it, and is free at once after the holder is SIGKILLed, leaving no temp files', async () => {
    const lockDir = join(dir, 'lock');
    const lock = join(lockDir, 'ipam.lock');
    const hole = await blackHole();
    try {
      // The holder takes the lock, then hangs on an etcd that never answers.
      const holderConf = netConf({ datastore_type: 'etcdv3', etcd_endpoints: hole.endpoint, ipam_lock_file: lock, log_level: 'debug' });
      const holder = start(cniEnv({ command: 'ADD', containerId: 'holder', args: 'IP=10.40.0.9' }), JSON.stringify(holderConf));
      await holder.printed('holding the host IPAM lock');

      const waiting = await run(cniEnv({ command: 'ADD', containerId: 'waiter' }), JSON.stringify(netConf({ ...b.confKeys, ipam_lock_file: lock }, { ipam: { type: 'calico-ipam', timeout_seconds: 1 } })));
      expect(waiting.code).toBe(1);
      expect(waiting.json).toEqual({ code: 11, msg: `timed out after 1 s (ipam.timeout_seconds) waiting for the host IPAM lock ${JSON.stringify(lock)}, which another CNI call on this node holds` });

      holder.child.kill('SIGKILL');
      expect((await holder.answer).code).toBe(null);
      // No PID to judge and nothing to clean: the kernel dropped the dead holder's socket.
      const next = await run(cniEnv({ command: 'ADD', containerId: 'after' }), JSON.stringify(netConf({ ...b.confKeys, ipam_lock_file: lock }, { ipam: { type: 'calico-ipam', timeout_seconds: 5 } })));
      expect(next.code).toBe(0);
      expect((await allocations(b.ds)).map((a) => a.split('=')[0])).toEqual(['k8s-pod-network.after']);
      expect(readdirSync(lockDir)).toEqual(['ipam.lock']);
    } finally {
      await hole.close();
    }
  });

  it('answers code 7 at once when the lock path is a directory', async () => {
    const lock = join(dir, 'ipam.lock');
    mkdirSync(lock);
    const r = await run(cniEnv({ command: 'ADD' }), JSON.stringify(netConf({ ...b.confKeys, ipam_lock_file: lock })));
    expect(r.json).toEqual({ code: 7, msg: `ipam_lock_file ${JSON.stringify(lock)} is not a regular file` });
    expect(await allocations(b.ds)).toEqual([]);
  });
});

describe('one budget per call', () => {
  it.each([
    { case: 'ADD', command: 'ADD', args: undefined, what: 'waiting for the datastore while assigning addresses' },
    { case: 'ADD of a requested address', command: 'ADD', args: 'IP=10.40.0.9', what: 'waiting for the datastore while assigning the requested addresses' },
    { case: 'DEL', command: 'DEL', args: undefined, what: 'waiting for the datastore while releasing addresses' },
  ])('$case against an etcd that never answers gives code 11 within the configured budget', async ({ command, args, what }) => {
    const hole = await blackHole();
    try {
      const conf = netConf({ datastore_type: 'etcdv3', etcd_endpoints: hole.endpoint, ipam_lock_file: join(dir, 'ipam.lock') }, { ipam: { type: 'calico-ipam', timeout_seconds: 2 } });
      const r = await run(cniEnv({ command, ...(args === undefined ? {} : { args }) }), JSON.stringify(conf));
      expect(r.json).toEqual({ code: 11, msg: `timed out after 2 s (ipam.timeout_seconds) ${what}` });
      // 2 s of budget plus start-up and closing; the etcd client's own call timeout is 10 s.
      expect(r.ms).toBeLessThan(8_000);
    } finally {
      await hole.close();
    }
  });

  it('ADD against a closed loopback port gives code 11 within the configured budget', async () => {
    const conf = netConf({ datastore_type: 'etcdv3', etcd_endpoints: 'http://127.0.0.1:9', ipam_lock_file: join(dir, 'ipam.lock') }, { ipam: { type: 'calico-ipam', timeout_seconds: 3 } });
    const r = await run(cniEnv({ command: 'ADD' }), JSON.stringify(conf));
    expect(r.json?.code).toBe(11);
    expect(r.ms).toBeLessThan(8_000);
  });
});

describe('input limits at the bin', () => {
  const HUGE = 'x'.repeat(1_000_000);
  it.each([
    { case: 'nodename', conf: { nodename: HUGE }, msg: 'failed to load netconf: nodename is longer than 253 characters' },
    { case: 'cniVersion', conf: { cniVersion: HUGE }, msg: 'failed to load netconf: cniVersion is longer than 16 characters' },
    { case: 'network name', conf: { name: HUGE }, msg: 'failed to load netconf: name is longer than 253 characters' },
  ])('a 1 MB $case is code 7 and quoted at most 256 characters', async ({ conf, msg }) => {
    const r = await run(cniEnv({ command: 'ADD' }), JSON.stringify(netConf(b.confKeys, conf)));
    expect(r.json?.code).toBe(7);
    expect(r.json?.msg?.startsWith(msg)).toBe(true);
    expect(echoed(r.json?.msg ?? '', 'x')).toBe(256);
    expect(echoed(r.stderr, 'x')).toBeLessThanOrEqual(256);
  });

  it('a 1 MB pod annotation is code 7 and quoted at most 256 characters', async () => {
    const server = await startKubeApiServer();
    try {
      server.inject({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns1' } });
      server.inject({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'ns1', annotations: { 'cni.projectcalico.org/ipAddrs': HUGE } } });
      const kubeconfig = server.writeKubeconfig(join(dir, 'kubeconfig'));
      const conf = netConf(b.confKeys, { policy: { type: 'k8s' }, kubernetes: { kubeconfig } });
      const r = await run(cniEnv({ command: 'ADD', args: 'IgnoreUnknown=1;K8S_POD_NAMESPACE=ns1;K8S_POD_NAME=web' }), JSON.stringify(conf));
      expect(r.json?.code).toBe(7);
      expect(r.json?.msg?.startsWith('annotation "cni.projectcalico.org/ipAddrs" is longer than 4096 characters: "')).toBe(true);
      expect(echoed(r.json?.msg ?? '', 'x')).toBe(256);
      expect(await allocations(b.ds)).toEqual([]);
    } finally {
      await server.close();
    }
  });

  it('a 5 MB network name is refused before it reaches the datastore: the SQLite file does not grow', async () => {
    const files = () => readdirSync(b.dir).filter((f) => f.startsWith('ipam.db')).map((f) => `${f}=${statSync(join(b.dir, f)).size}`);
    const before = files();
    for (const command of ['ADD', 'DEL']) {
      const r = await run(cniEnv({ command }), JSON.stringify(netConf(b.confKeys, { name: 'n'.repeat(5_000_000) })));
      expect(r.json?.code).toBe(7);
      expect(echoed(r.json?.msg ?? '', 'n')).toBe(256);
    }
    expect(files()).toEqual(before);
  });
});

describe('paths the plugin creates', () => {
  it.each([
    { key: 'sqlite_path', value: '/proc/ipamkit/ipam.db', msg: 'sqlite_path "/proc/ipamkit/ipam.db" is under /proc: choose a path on a real file system' },
    { key: 'ipam_lock_file', value: '/proc/ipamkit/ipam.lock', msg: 'ipam_lock_file "/proc/ipamkit/ipam.lock" is under /proc: choose a path on a real file system' },
    { key: 'log_file_path', value: '/proc/ipamkit/cni.log', msg: 'log_file_path "/proc/ipamkit/cni.log" is under /proc: choose a path on a real file system' },
    { key: 'sqlite_path', value: '/sys/ipamkit/ipam.db', msg: 'sqlite_path "/sys/ipamkit/ipam.db" is under /sys: choose a path on a real file system' },
  ])('$key under $value is a clear code-7 error, not a hang', async ({ key, value, msg }) => {
    const r = await run(cniEnv({ command: 'ADD' }), JSON.stringify(netConf({ ...b.confKeys, [key]: value })));
    expect(r.json).toEqual({ code: 7, msg });
  });

  it('creates directories 0700 and the lock and log files 0600 under umask 0', async () => {
    const conf = netConf({
      datastore_type: 'sqlite',
      sqlite_path: join(dir, 'db', 'sub', 'ipam.db'),
      ipam_lock_file: join(dir, 'lock', 'sub', 'ipam.lock'),
      log_file_path: join(dir, 'log', 'sub', 'cni.log'),
    });
    // An empty database: assigning the requested address fails (no pool), after every path was created.
    const r = await run(cniEnv({ command: 'ADD', args: 'IP=10.40.0.9' }), JSON.stringify(conf), { umask0: true });
    expect(r.code).toBe(1);
    const mode = (p: string) => (statSync(join(dir, p)).mode & 0o777).toString(8);
    expect(['db', 'db/sub', 'lock', 'lock/sub', 'log', 'log/sub'].map(mode)).toEqual(['700', '700', '700', '700', '700', '700']);
    expect(['lock/sub/ipam.lock', 'log/sub/cni.log'].map(mode)).toEqual(['600', '600']);
    expect(existsSync(join(dir, 'db', 'sub', 'ipam.db'))).toBe(true);
  });
});

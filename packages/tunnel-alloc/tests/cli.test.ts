import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Datastore, Node } from '@ipamkit/models';
import { createDatastore } from '@ipamkit/ipam-datastore';
import { describe, expect, it } from 'vitest';
import { runTunnelAllocCli } from '../src/index.js';
import { NODE, tempDir, track, useBackends } from './fixtures.js';

useBackends({ etcd: false });

const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function assertBuilt(): void {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run "npx --no-install tsup" in packages/tunnel-alloc first`);
}

/** Spawns the bin; `whileRunning` may act on it (e.g. wait, then send SIGTERM). Always killed at the end. */
function runBin(args: string[], env: Record<string, string>, whileRunning?: (kill: (signal: NodeJS.Signals) => void) => Promise<void>): Promise<Run> {
  assertBuilt();
  const child = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env['PATH'] ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout.on('data', (c: Buffer) => out.push(c));
  child.stderr.on('data', (c: Buffer) => err.push(c));
  const closed = new Promise<Run>((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
    });
  });
  if (whileRunning === undefined) return closed;
  return whileRunning((signal) => child.kill(signal))
    .catch((e: unknown) => {
      child.kill('SIGKILL');
      throw e;
    })
    .then(() => closed);
}

async function seededSqlite(): Promise<{ path: string; open: () => Promise<Datastore> }> {
  const path = join(tempDir(), 'ipam.db');
  const open = async () => track(await createDatastore({ type: 'sqlite', path }));
  const ds = await open();
  await ds.ipPools.create({ name: 'v4', cidr: '10.10.0.0/24', blockSize: 26, vxlanMode: 'Always' });
  await ds.nodes.create({ name: NODE });
  await ds.close();
  return { path, open };
}

/** Resolves with the Node once a watch shows it carrying a VXLAN address. */
async function nodeWithVxlan(ds: Datastore, signal: AbortSignal): Promise<Node> {
  const current = await ds.nodes.listWithRevision();
  const ready = current.items.find((n) => n.name === NODE && n.tunnelAddresses?.ipv4VXLANTunnelAddr !== undefined);
  if (ready !== undefined) return ready;
  for await (const event of ds.nodes.watch({ fromRevision: current.revision, signal })) {
    if (event.type === 'modified' && event.object.name === NODE && event.object.tunnelAddresses?.ipv4VXLANTunnelAddr !== undefined) return event.object;
  }
  throw new Error('watch ended before the node got its address');
}

describe('ipamkit-tunnel-alloc bin', () => {
  it('allocates once with --run-once and exits 0', async () => {
    const db = await seededSqlite();
    const result = await runBin(['--run-once'], { NODENAME: NODE, DATASTORE_TYPE: 'sqlite', IPAMKIT_SQLITE_PATH: db.path });
    expect(result.code).toBe(0);
    const ds = await db.open();
    const node = await ds.nodes.get(NODE);
    expect(node.tunnelAddresses?.ipv4VXLANTunnelAddr).toMatch(/^10\.10\.0\.\d+$/);
  });

  it('exits 1 with Calico\'s message when NODENAME is not set', async () => {
    const result = await runBin(['--run-once'], { DATASTORE_TYPE: 'memory' });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('NODENAME environment is not set\n');
  });

  it('exits 1 naming the failure when the one-shot reconcile fails', async () => {
    const db = await seededSqlite();
    const result = await runBin(['--run-once'], { NODENAME: 'no-such-node', DATASTORE_TYPE: 'sqlite', IPAMKIT_SQLITE_PATH: db.path });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("Tunnel IP allocator failed: failed to fetch node resource 'no-such-node'");
  });

  it('runs as a daemon until SIGTERM, then exits 0', async () => {
    const db = await seededSqlite();
    const ds = await db.open();
    const controller = new AbortController();
    const result = await runBin([], { NODENAME: NODE, DATASTORE_TYPE: 'sqlite', IPAMKIT_SQLITE_PATH: db.path }, async (kill) => {
      const node = await nodeWithVxlan(ds, controller.signal);
      expect(node.tunnelAddresses?.ipv4VXLANTunnelAddr).toMatch(/^10\.10\.0\.\d+$/);
      kill('SIGTERM');
    });
    controller.abort();
    expect(result.code).toBe(0);
  });
});

describe('runTunnelAllocCli', () => {
  const io = (argv: string[], env: Record<string, string>, signal = new AbortController().signal) => {
    const out: string[] = [];
    const err: string[] = [];
    return { out, err, argv, io: { env, signal, stdout: { write: (t: string) => out.push(t) }, stderr: { write: (t: string) => err.push(t) } } };
  };

  it('does nothing and exits 0 in one-shot mode under USE_POD_CIDR (no datastore needed)', async () => {
    const r = io(['--run-once'], { NODENAME: NODE, USE_POD_CIDR: 'true' });
    expect(await runTunnelAllocCli(r.argv, r.io)).toBe(0);
    expect(r.err).toEqual([]);
  });

  it('blocks until stopped in daemon mode under USE_POD_CIDR', async () => {
    const controller = new AbortController();
    const r = io([], { NODENAME: NODE, USE_POD_CIDR: '1' }, controller.signal);
    const running = runTunnelAllocCli(r.argv, r.io);
    let settled = false;
    void running.then(() => (settled = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBe(false);
    controller.abort();
    expect(await running).toBe(0);
  });

  it.each([
    [['--bogus'], "Unknown option '--bogus'"],
    [['--wireguard-ipv4', 'maybe'], 'wireguard-ipv4 must be one of infer, enabled, disabled; got "maybe"'],
  ])('rejects bad arguments %j with exit code 2', async (argv, message) => {
    const r = io(argv, { NODENAME: NODE });
    expect(await runTunnelAllocCli(r.argv, r.io)).toBe(2);
    expect(r.err.join('')).toContain(message);
  });

  it('prints usage for --help', async () => {
    const r = io(['--help'], {});
    expect(await runTunnelAllocCli(r.argv, r.io)).toBe(0);
    expect(r.out.join('')).toContain('Usage: ipamkit-tunnel-alloc [--run-once]');
  });

  it('prints the package version for --version, needing no NODENAME', async () => {
    const r = io(['--version'], {});
    expect(await runTunnelAllocCli(r.argv, r.io)).toBe(0);
    expect(r.out.join('')).toBe(`${(JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version}\n`);
  });
});

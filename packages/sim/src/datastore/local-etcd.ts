import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sleep } from '@ipamkit/models';
import { SimStepError } from '../errors.js';

export const ETCD_BINARY = '/usr/bin/etcd';

/** A throw-away single-member etcd the simulator starts for `--datastore etcd` and the hammer. */
export interface LocalEtcd {
  readonly endpoint: string;
  /** Kills etcd and starts it again on the same ports and data: keys and revisions survive. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** How often a starting etcd is asked whether it is healthy. */
const HEALTH_POLL_MS = 50;

async function healthy(endpoint: string, timeoutMs: number, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new SimStepError('etcd', `etcd exited with code ${child.exitCode} while starting`);
    try {
      const res = await fetch(`${endpoint}/health`);
      const body = (await res.json()) as { health?: string };
      if (body.health === 'true') return;
    } catch {
      // Not listening yet.
    }
    await sleep(HEALTH_POLL_MS);
  }
  throw new SimStepError('etcd', `etcd at ${endpoint} was not healthy within ${timeoutMs} ms`);
}

function kill(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

/** Starts etcd on free loopback ports in a temp dir; `stop()` kills it and removes the dir. */
export async function startLocalEtcd(binary = ETCD_BINARY, timeoutMs = 60_000): Promise<LocalEtcd> {
  if (!existsSync(binary)) throw new SimStepError('etcd', `${binary} not found: install etcd (Debian: etcd-server) or use --datastore sqlite`);
  const root = mkdtempSync(join(tmpdir(), 'ipamkit-sim-etcd-'));
  const clientPort = await freePort();
  const peerPort = await freePort();
  const endpoint = `http://127.0.0.1:${clientPort}`;
  const peer = `http://127.0.0.1:${peerPort}`;
  const launch = async (): Promise<ChildProcess> => {
    const args = [
      '--name', 'sim', '--data-dir', join(root, 'data'),
      '--listen-client-urls', endpoint, '--advertise-client-urls', endpoint,
      '--listen-peer-urls', peer, '--initial-advertise-peer-urls', peer,
      '--initial-cluster', `sim=${peer}`, '--initial-cluster-state', 'new',
      '--log-level', 'error', '--heartbeat-interval', '10', '--election-timeout', '100',
      // Simulation data is disposable; fsync would only measure the disk.
      '--unsafe-no-fsync',
    ];
    const child = spawn(binary, args, { stdio: 'ignore' });
    try {
      await healthy(endpoint, timeoutMs, child);
    } catch (err) {
      await kill(child);
      throw err;
    }
    return child;
  };
  let child = await launch();
  const onExit = (): void => {
    child.kill('SIGKILL');
  };
  process.once('exit', onExit);
  return {
    endpoint,
    async restart() {
      await kill(child);
      child = await launch();
    },
    async stop() {
      process.removeListener('exit', onExit);
      await kill(child);
      rmSync(root, { recursive: true, force: true });
    },
  };
}

import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, openSync, closeSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sleep } from '@ipamkit/models';
// A loopback port that was free a moment ago: etcd binds it next.
import { closedPort as freePort } from '../controller-process/flapping-proxy.js';
import { enableEtcdAuth, ETCD_ROOT_USER, type EtcdCredentials } from './etcd-auth.js';
import { DEFAULT_OPENSSL_BINARY, generateEtcdCertificates, type EtcdTlsFiles } from './etcd-certs.js';
import { etcdHealthy } from './etcd-health.js';
import { trackForCleanup, untrack } from './leak-guard.js';

/** Where Debian's `etcd-server` package puts the binary (design/toolchain.md#etcd). */
export const DEFAULT_ETCD_BINARY = '/usr/bin/etcd';

/** The etcd binary is not installed; tests that need a real etcd must fail, never skip. */
export class EtcdNotInstalledError extends Error {
  override name = 'EtcdNotInstalledError';
  constructor(readonly binary: string) {
    super(`etcd binary not found at ${binary}: install it with "apt-get install etcd-server" (Debian/Ubuntu)`);
  }
}

/** etcd did not become healthy, or exited while starting. */
export class EtcdStartError extends Error {
  override name = 'EtcdStartError';
}

export interface StartEtcdOptions {
  /** Defaults to /usr/bin/etcd. */
  readonly binary?: string;
  /** How long to wait for `/health` to report healthy (ms). Generous: the machine is shared. */
  readonly startTimeoutMs?: number;
  /**
   * Serve clients over TLS only, and require a client certificate (`--client-cert-auth`): a CA, a
   * server certificate and a client certificate are generated with openssl for this instance.
   */
  readonly tls?: boolean;
  /** Enable etcd's authentication: user `root` with a random password (set with etcdctl). */
  readonly auth?: boolean;
  /** Defaults to /usr/bin/etcdctl (Debian's `etcd-client`); used only with `auth`. */
  readonly etcdctl?: string;
  /** Defaults to /usr/bin/openssl; used only with `tls`. */
  readonly openssl?: string;
}

export interface EtcdHandle {
  /** `http://127.0.0.1:<client port>` (`https://` with `tls`); stays the same across `restart()`. */
  readonly endpoint: string;
  /** With `tls`: the generated PEM files (the client's and a CA that signed nothing, for failure tests). */
  readonly tls?: EtcdTlsFiles;
  /** With `auth`: the root user and its password. */
  readonly auth?: EtcdCredentials;
  readonly dataDir: string;
  /** PID of the current (after stop: the last) etcd process; changes on restart. */
  readonly pid: number;
  /** Kills etcd by PID and removes the data directory. Idempotent. */
  stop(): Promise<void>;
  /** Kills etcd and starts it again on the same ports and data (keys and revisions survive). */
  restart(): Promise<void>;
}

const START_ATTEMPTS = 3;
const HEALTH_POLL_MS = 25;

/**
 * Starts a throw-away single-member etcd on free loopback ports, in a temp dir, with the short
 * election timeouts and `--unsafe-no-fsync` measured in design/toolchain.md#etcd (healthy in ~0.15 s).
 */
export async function startEtcd(options: StartEtcdOptions = {}): Promise<EtcdHandle> {
  const binary = options.binary ?? DEFAULT_ETCD_BINARY;
  if (!existsSync(binary)) throw new EtcdNotInstalledError(binary);
  const timeoutMs = options.startTimeoutMs ?? 30_000;
  const root = mkdtempSync(join(tmpdir(), 'ipamkit-etcd-'));
  const dataDir = join(root, 'data');
  const cleanupDir = (): void => rmSync(root, { recursive: true, force: true });
  let tls: EtcdTlsFiles | undefined;
  try {
    tls = options.tls === true ? generateEtcdCertificates(join(root, 'tls'), options.openssl ?? DEFAULT_OPENSSL_BINARY) : undefined;
  } catch (err) {
    cleanupDir();
    throw new EtcdStartError(`could not generate etcd test certificates with openssl: ${(err as Error).message}`);
  }

  let lastError: unknown;
  // Free ports are probed then released, so another process can grab one in between: retry.
  for (let attempt = 0; attempt < START_ATTEMPTS; attempt++) {
    const clientPort = await freePort();
    const peerPort = await freePort();
    try {
      const spec: LaunchSpec = { binary, root, dataDir, clientPort, peerPort, timeoutMs, cleanupDir, ...(tls === undefined ? {} : { tls }) };
      const child = await launch(spec);
      const handle = makeHandle(spec, child);
      if (options.auth !== true) return handle;
      const auth = { username: ETCD_ROOT_USER, password: randomBytes(12).toString('hex') };
      try {
        enableEtcdAuth({ etcdctl: options.etcdctl, endpoint: handle.endpoint, credentials: auth, tls });
      } catch (err) {
        await handle.stop();
        throw err;
      }
      return { ...handle, auth, get pid(): number {
        return handle.pid;
      } };
    } catch (err) {
      lastError = err;
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
  cleanupDir();
  throw lastError instanceof Error ? lastError : new EtcdStartError(String(lastError));
}

interface LaunchSpec {
  readonly binary: string;
  readonly root: string;
  readonly dataDir: string;
  readonly clientPort: number;
  readonly peerPort: number;
  readonly timeoutMs: number;
  readonly cleanupDir: () => void;
  readonly tls?: EtcdTlsFiles;
}

const scheme = (spec: LaunchSpec): string => (spec.tls === undefined ? 'http' : 'https');

function makeHandle(spec: LaunchSpec, first: ChildProcess): EtcdHandle {
  let child: ChildProcess | undefined = first;
  let lastPid = first.pid ?? -1;
  let stopped = false;
  return {
    endpoint: `${scheme(spec)}://127.0.0.1:${spec.clientPort}`,
    dataDir: spec.dataDir,
    ...(spec.tls === undefined ? {} : { tls: spec.tls }),
    get pid(): number {
      return lastPid;
    },
    async stop(): Promise<void> {
      if (stopped) return;
      stopped = true;
      if (child !== undefined) await kill(child);
      child = undefined;
      spec.cleanupDir();
    },
    async restart(): Promise<void> {
      if (stopped) throw new EtcdStartError('cannot restart an etcd that was stopped');
      if (child !== undefined) await kill(child);
      child = undefined;
      child = await launch(spec);
      lastPid = child.pid ?? -1;
    },
  };
}

async function launch(spec: LaunchSpec): Promise<ChildProcess> {
  const client = `${scheme(spec)}://127.0.0.1:${spec.clientPort}`;
  const peer = `http://127.0.0.1:${spec.peerPort}`;
  const logPath = join(spec.root, 'etcd.log');
  const logFd = openSync(logPath, 'a');
  const args = [
    '--name', 'ipamkit-test', '--data-dir', spec.dataDir,
    '--listen-client-urls', client, '--advertise-client-urls', client,
    '--listen-peer-urls', peer, '--initial-advertise-peer-urls', peer,
    '--initial-cluster', `ipamkit-test=${peer}`, '--initial-cluster-state', 'new',
    '--logger', 'zap', '--log-level', 'warn',
    '--heartbeat-interval', '10', '--election-timeout', '100',
    // Test data is disposable; fsync only costs time (design/toolchain.md#etcd).
    '--unsafe-no-fsync',
    ...(spec.tls === undefined
      ? []
      : ['--cert-file', spec.tls.serverCertFile, '--key-file', spec.tls.serverKeyFile, '--client-cert-auth', '--trusted-ca-file', spec.tls.caFile]),
  ];
  const child = spawn(spec.binary, args, { stdio: ['ignore', logFd, logFd] });
  closeSync(logFd);
  trackForCleanup(child, spec.cleanupDir);
  const exited = new Promise<never>((_, reject) => {
    child.once('exit', (code, signal) => {
      reject(new EtcdStartError(`etcd exited while starting (code ${String(code)}, signal ${String(signal)}): ${tail(logPath)}`));
    });
    child.once('error', (err) => reject(new EtcdStartError(`could not spawn ${spec.binary}: ${err.message}`)));
  });
  try {
    await Promise.race([waitHealthy(client, spec.timeoutMs, logPath, spec.tls), exited]);
    return child;
  } catch (err) {
    await kill(child);
    throw err;
  } finally {
    exited.catch(() => undefined);
  }
}

async function waitHealthy(endpoint: string, timeoutMs: number, logPath: string, tls: EtcdTlsFiles | undefined): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await etcdHealthy(endpoint, tls)) return;
    await sleep(HEALTH_POLL_MS);
  }
  throw new EtcdStartError(`etcd at ${endpoint} not healthy after ${timeoutMs} ms: ${tail(logPath)}`);
}

/** SIGTERM, then SIGKILL if it lingers; resolves once the process has exited. */
async function kill(child: ChildProcess): Promise<void> {
  untrack(child);
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await gone;
  clearTimeout(timer);
}

function tail(path: string): string {
  try {
    return readFileSync(path, 'utf8').slice(-2_000);
  } catch {
    return '(no log)';
  }
}

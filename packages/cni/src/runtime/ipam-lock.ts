import { closeSync, constants, fstatSync, openSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { backoffDelay } from '@ipamkit/models';
import { echoInput } from '../config/input-limits.js';
import { CNI_CODES, CniError, NetworkConfigError } from '../errors.js';
import { CallDeadline, DEFAULT_TIMEOUT_SECONDS, sleepWithin } from './call-deadline.js';
import type { Logger } from '@ipamkit/models';
import { holderReleased, listenForLock } from './lock-listener.js';
import { ensureDirectory, errCode, FILE_MODE, refuseKernelFilesystem, resolvedPath } from './safe-directory.js';

export const DEFAULT_LOCK_FILE = process.platform === 'win32' ? 'c:\\CalicoWindows\\ipam.lock' : '/var/run/calico/ipam.lock';

export type Unlock = () => void;

const WHAT = 'ipam_lock_file';
/** Waits of 1–3 ms first, doubling, up to 50–150 ms: 2 ms doubling to 100 ms, ±50 % at random. */
const LOCK_BACKOFF = { baseMs: 3, capMs: 150, jitter: 2 / 3 };

/**
 * Creates the lock file if needed (mode 0600) and checks it is a regular file, so that a directory,
 * a device or a path under /proc is a code-7 error at once rather than a wait. Returns its resolved
 * path, which names the lock.
 */
export function prepareLockFile(path: string): string {
  const resolved = resolvedPath(path);
  refuseKernelFilesystem(resolved, WHAT);
  ensureDirectory(dirname(resolved), WHAT);
  const notAFile = new NetworkConfigError(`${WHAT} ${JSON.stringify(echoInput(resolved))} is not a regular file`);
  try {
    // Never open a device or a FIFO: opening one can have effects of its own.
    if (!statSync(resolved).isFile()) throw notAFile;
  } catch (err) {
    if (err === notAFile) throw err;
    if (errCode(err) !== 'ENOENT') throw new CniError(CNI_CODES.ioFailure, `${WHAT} ${JSON.stringify(echoInput(resolved))}: ${errCode(err) ?? 'error'}`);
  }
  let fd: number;
  try {
    fd = openSync(resolved, constants.O_RDWR | constants.O_CREAT | constants.O_NONBLOCK, FILE_MODE);
  } catch (err) {
    if (errCode(err) === 'EISDIR') throw notAFile;
    throw new CniError(CNI_CODES.ioFailure, `${WHAT} ${JSON.stringify(echoInput(resolved))}: cannot create it: ${errCode(err) ?? 'error'}`);
  }
  try {
    if (!fstatSync(fd).isFile()) throw notAFile;
  } finally {
    closeSync(fd);
  }
  return resolved;
}

/**
 * FNV-1a, 64 bits, as 16 hex digits: names the lock after its path without loading `node:crypto`
 * (several milliseconds of every call; design/cni.md, "Start-up cost"). Two paths that collide
 * would only share one lock: callers wait for each other, nothing is lost.
 */
function fnv1a64(text: string): string {
  let hash = 0xcbf29ce484222325n;
  for (const byte of Buffer.from(text, 'utf8')) hash = BigInt.asUintN(64, (hash ^ BigInt(byte)) * 0x100000001b3n);
  return hash.toString(16).padStart(16, '0');
}

/**
 * The kernel object that is the lock: an abstract-namespace Unix socket on Linux, a named pipe on
 * Windows, named after a hash of the lock file's resolved path. The plugin runs in the host network
 * namespace (the runtime passes the container's netns only as CNI_NETNS), so every caller on the
 * node sees the same abstract namespace. Undefined where neither exists.
 */
export function lockAddress(resolvedLockFile: string, platform: NodeJS.Platform = process.platform): string | undefined {
  const name = `ipamkit-ipam-lock-${fnv1a64(resolvedLockFile)}`;
  if (platform === 'linux') return `\0${name}`;
  if (platform === 'win32') return `\\\\?\\pipe\\${name}`;
  return undefined;
}

/** Waiters in this process, woken when a call in this process releases the lock (no poll delay in the simulator). */
const localWaiters = new Map<string, Set<() => void>>();

function wakeLocalWaiters(address: string): void {
  for (const wake of localWaiters.get(address) ?? []) wake();
}

/**
 * Sleeps `ms` (within the budget), or less if this process releases the lock meanwhile or `released`
 * (the holder letting go) resolves first. False when the budget ran out.
 */
async function pause(address: string, deadline: CallDeadline, ms: number, released: (address: string, ms: number) => Promise<void>): Promise<boolean> {
  let wake: () => void = () => undefined;
  const woken = new Promise<boolean>((resolve) => (wake = () => resolve(true)));
  const waiters = localWaiters.get(address) ?? new Set();
  localWaiters.set(address, waiters.add(wake));
  try {
    const letGo = released(address, Math.max(0, Math.min(ms, deadline.remainingMs()))).then(() => deadline.remainingMs() > 0);
    return await Promise.race([sleepWithin(deadline, ms), woken, letGo]);
  } finally {
    waiters.delete(wake);
    if (waiters.size === 0) localWaiters.delete(address);
  }
}

/**
 * The host-wide IPAM lock (design/cni.md, "Host lock"). Held by listening on a socket: the kernel
 * releases it when the holder exits, however it exits, so there is no PID to judge and no file to
 * clean up. Waits with jittered backoff while another process (or another call in this process)
 * holds it, and answers code 11 naming the lock when the call's budget runs out first.
 */
export async function acquireIpamLock(args: { path: string; log: Logger; deadline?: CallDeadline; random?: () => number }): Promise<Unlock> {
  const resolved = prepareLockFile(args.path);
  const address = lockAddress(resolved);
  if (address === undefined) {
    args.log.info('Failed to grab IPAM lock, may contend for datastore updates: no host lock on this platform');
    return () => undefined;
  }
  const deadline = args.deadline ?? new CallDeadline(DEFAULT_TIMEOUT_SECONDS, 'waiting for the host IPAM lock');
  const random = args.random ?? Math.random;
  const waitingFor = `waiting for the host IPAM lock ${JSON.stringify(echoInput(resolved))}, which another CNI call on this node holds`;
  return deadline.during(waitingFor, () => waitForLock({ address, resolved, log: args.log, deadline, random, waitingFor }));
}

async function waitForLock(args: { address: string; resolved: string; log: Logger; deadline: CallDeadline; random: () => number; waitingFor: string }): Promise<Unlock> {
  const { address, deadline, random, waitingFor } = args;
  for (let round = 0; ; round += 1) {
    let held: Awaited<ReturnType<typeof listenForLock>>;
    try {
      held = await listenForLock(address);
    } catch (err) {
      // As Calico: a lock we cannot take is logged and the call goes on; the datastore's CAS keeps data safe.
      args.log.info(`Failed to grab IPAM lock, may contend for datastore updates: ${errCode(err) ?? 'error'}`);
      return () => undefined;
    }
    if (held !== undefined) {
      const lock = held;
      if (deadline.remainingMs() <= 0) {
        // The call has answered 11 already: work done now would be unseen by the runtime.
        lock.release(() => wakeLocalWaiters(address));
        throw deadline.expired(waitingFor);
      }
      args.log.debug(`holding the host IPAM lock ${args.resolved}`);
      return () => lock.release(() => wakeLocalWaiters(address));
    }
    // Wait for the holder to let go; the backoff only bounds each wait (a holder that never accepts).
    if (!(await pause(address, deadline, backoffDelay(LOCK_BACKOFF, round, random), holderReleased))) throw deadline.expired(waitingFor);
  }
}

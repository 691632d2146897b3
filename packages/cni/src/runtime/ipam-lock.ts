import { randomBytes } from 'node:crypto';
import { closeSync, linkSync, mkdirSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from './logger.js';

export const DEFAULT_LOCK_FILE = process.platform === 'win32' ? 'c:\\CalicoWindows\\ipam.lock' : '/var/run/calico/ipam.lock';

/** Longest we wait for the host lock before going on without it (Calico waits forever). */
const DEFAULT_WAIT_MS = 60_000;

export type Unlock = () => void;

function errCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : undefined;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return errCode(err) === 'EPERM';
  }
}

/** The PID in a lock file, or undefined when the file is gone or unreadable. */
function holderOf(path: string): { token: string; pid: number } | undefined {
  try {
    const token = readFileSync(path, 'utf8').trim();
    const pid = Number.parseInt(token.split(':')[0] ?? '', 10);
    return Number.isSafeInteger(pid) && pid > 0 ? { token, pid } : { token, pid: -1 };
  } catch {
    return undefined;
  }
}

/** Removes a lock left by a dead process, without ever removing a live one we did not see. */
function breakStaleLock(path: string, stale: string): void {
  const aside = `${path}.stale.${randomBytes(6).toString('hex')}`;
  try {
    renameSync(path, aside);
  } catch {
    return;
  }
  const moved = holderOf(aside);
  if (moved !== undefined && moved.token !== stale) {
    // We moved a fresh lock taken after our check: put it back unless someone already re-locked.
    try {
      linkSync(aside, path);
    } catch {
      // Two holders for a moment: the datastore's compare-and-swap still keeps data safe.
    }
  }
  try {
    unlinkSync(aside);
  } catch {
    // Already gone.
  }
}

/**
 * The host-wide IPAM lock (spec/cni.md §14), best effort. Node has no flock(2), so the lock is an
 * exclusively created file holding `<pid>:<nonce>`; a file whose PID is dead is stale and broken.
 * Any failure to lock is logged and the caller proceeds without the lock, as Calico does.
 */
export async function acquireIpamLock(path: string, log: Logger, waitMs = DEFAULT_WAIT_MS): Promise<Unlock> {
  try {
    mkdirSync(dirname(path), { recursive: true, mode: 0o777 });
  } catch (err) {
    log.debug(`cannot create the lock directory: ${String(errCode(err))}`);
  }
  const token = `${process.pid}:${randomBytes(8).toString('hex')}`;
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`;
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    try {
      // Written aside then hard-linked into place, so the lock file never exists without its token.
      const fd = openSync(temp, 'w', 0o644);
      try {
        writeSync(fd, `${token}\n`);
      } finally {
        closeSync(fd);
      }
      try {
        linkSync(temp, path);
      } finally {
        unlinkSync(temp);
      }
      return () => {
        if (holderOf(path)?.token === token) {
          try {
            unlinkSync(path);
          } catch {
            // Someone broke our lock already.
          }
        }
      };
    } catch (err) {
      if (errCode(err) !== 'EEXIST') {
        log.info('Failed to grab IPAM lock, may contend for datastore updates');
        return () => undefined;
      }
    }
    const holder = holderOf(path);
    if (holder !== undefined && (holder.pid === -1 || (holder.pid !== process.pid && !isAlive(holder.pid)))) {
      breakStaleLock(path, holder.token);
      continue;
    }
    if (Date.now() - started > waitMs) {
      log.info('Failed to grab IPAM lock, may contend for datastore updates');
      return () => undefined;
    }
    await delay(Math.min(50, 2 + attempt * 2) + Math.random() * 5);
  }
}

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CniError } from '../../src/errors.js';
import { CallDeadline } from '../../src/runtime/call-deadline.js';
import { acquireIpamLock, lockAddress, prepareLockFile } from '../../src/runtime/ipam-lock.js';
import { silentLogger } from '@ipamkit/models';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ipamkit-cni-lock-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const budget = (seconds: number) => new CallDeadline(seconds, 'test');

async function codeOf(promise: Promise<unknown>): Promise<{ code: number; message: string }> {
  try {
    await promise;
  } catch (err) {
    if (err instanceof CniError) return { code: err.code, message: err.message };
    throw err;
  }
  throw new Error('expected a CNI error');
}

/** Another process holding the lock the way the plugin does: listening on the lock's address. */
function holder(address: string): Promise<ChildProcess> {
  const script = "require('net').createServer().listen({ path: Buffer.from(process.argv[1], 'hex').toString() }, () => process.stdout.write('ready\\n'))";
  const child = spawn(process.execPath, ['-e', script, Buffer.from(address).toString('hex')], { stdio: ['ignore', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.stdout.once('data', () => resolve(child));
    child.once('exit', (code) => reject(new Error(`holder exited with ${String(code)}`)));
  });
}

function killed(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

describe('acquireIpamLock', () => {
  it('serialises holders in one process: the second waits until the first unlocks', async () => {
    const path = join(dir, 'ipam.lock');
    const order: string[] = [];
    const unlockA = await acquireIpamLock({ path, log: silentLogger });
    const b = acquireIpamLock({ path, log: silentLogger }).then((unlock) => {
      order.push('b locked');
      unlock();
    });
    await new Promise((r) => setTimeout(r, 30));
    order.push('a unlocking');
    unlockA();
    await b;
    expect(order).toEqual(['a unlocking', 'b locked']);
  });

  it('waits for a live holder in another process, answers 11 naming the lock, and goes through once the holder is SIGKILLed', async () => {
    const path = join(dir, 'ipam.lock');
    const child = await holder(lockAddress(prepareLockFile(path)) ?? '');
    try {
      const blocked = await codeOf(acquireIpamLock({ path, log: silentLogger, deadline: budget(0.3) }));
      expect(blocked.code).toBe(11);
      expect(blocked.message).toBe(`timed out after 0.3 s (ipam.timeout_seconds) waiting for the host IPAM lock ${JSON.stringify(join(dir, 'ipam.lock'))}, which another CNI call on this node holds`);
    } finally {
      await killed(child);
    }
    // No PID is judged: the kernel released the dead holder's socket, so the lock is free at once.
    const unlock = await acquireIpamLock({ path, log: silentLogger, deadline: budget(30) });
    unlock();
    expect(readdirSync(dir)).toEqual(['ipam.lock']);
  });

  it('leaves only the lock file in its directory, however often it is taken', async () => {
    const path = join(dir, 'ipam.lock');
    for (let i = 0; i < 5; i++) (await acquireIpamLock({ path, log: silentLogger }))();
    expect(readdirSync(dir)).toEqual(['ipam.lock']);
  });

  it.each([
    { case: 'a directory', setup: (d: string) => (mkdirSync(join(d, 'ipam.lock')), join(d, 'ipam.lock')), msg: /^ipam_lock_file ".*ipam\.lock" is not a regular file$/ },
    { case: 'a device', setup: () => '/dev/null', msg: /^ipam_lock_file "\/dev\/null" is not a regular file$/ },
    { case: 'under /proc', setup: () => '/proc/self/ipam.lock', msg: /^ipam_lock_file "\/proc\/\d+\/ipam\.lock" is under \/proc: choose a path on a real file system$/ },
    { case: 'under /sys', setup: () => '/sys/ipam.lock', msg: /^ipam_lock_file "\/sys\/ipam\.lock" is under \/sys/ },
    { case: 'below a file', setup: (d: string) => (writeFileSync(join(d, 'file'), ''), join(d, 'file', 'ipam.lock')), msg: /^ipam_lock_file: ".*file" exists and is not a directory$/ },
  ])('refuses a lock path that is $case with code 7 instead of waiting', async ({ setup, msg }) => {
    const failure = await codeOf(acquireIpamLock({ path: setup(dir), log: silentLogger, deadline: budget(60) }));
    expect(failure.code).toBe(7);
    expect(failure.message).toMatch(msg);
  });
});

describe('lockAddress', () => {
  it('names an abstract socket (Linux) or a pipe (Windows) after the resolved path', () => {
    const a = lockAddress('/var/run/calico/ipam.lock', 'linux');
    expect(a).toMatch(/^\0ipamkit-ipam-lock-[0-9a-f]{16}$/);
    expect(lockAddress('/var/run/calico/other.lock', 'linux')).not.toBe(a);
    expect(lockAddress('c:\\CalicoWindows\\ipam.lock', 'win32')).toMatch(/^\\\\\?\\pipe\\ipamkit-ipam-lock-[0-9a-f]{16}$/);
    expect(lockAddress('/x', 'darwin')).toBeUndefined();
  });
});

import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireIpamLock } from '../../src/runtime/ipam-lock.js';
import { silentLogger, type Logger } from '../../src/runtime/logger.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'ipamkit-cni-lock-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('acquireIpamLock', () => {
  it('serialises holders: the second waits until the first unlocks', async () => {
    const path = join(dir, 'ipam.lock');
    const order: string[] = [];
    const unlockA = await acquireIpamLock(path, silentLogger);
    const b = acquireIpamLock(path, silentLogger).then((unlock) => {
      order.push('b locked');
      unlock();
    });
    await new Promise((r) => setImmediate(r));
    order.push('a unlocking');
    unlockA();
    await b;
    expect(order).toEqual(['a unlocking', 'b locked']);
    expect(existsSync(path)).toBe(false);
  });

  it('breaks a lock left by a process that no longer exists', async () => {
    const path = join(dir, 'ipam.lock');
    const deadPid = Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }));
    writeFileSync(path, `${deadPid}:feedface\n`);
    const unlock = await acquireIpamLock(path, silentLogger, 5_000);
    unlock();
    expect(existsSync(path)).toBe(false);
  });

  it('goes on without a lock (and says so) when the lock file cannot be created', async () => {
    const lines: string[] = [];
    const log: Logger = { ...silentLogger, info: (m) => lines.push(m) };
    writeFileSync(join(dir, 'file'), '');
    const unlock = await acquireIpamLock(join(dir, 'file', 'ipam.lock'), log);
    unlock();
    expect(lines).toEqual(['Failed to grab IPAM lock, may contend for datastore updates']);
  });
});

import { existsSync } from 'node:fs';
import { Etcd3 } from 'etcd3';
import { describe, expect, it } from 'vitest';
import { EtcdNotInstalledError, startEtcd } from '@ipamkit/test-utils';

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('startEtcd', () => {
  it('fails with install instructions when the etcd binary is missing', async () => {
    const start = startEtcd({ binary: '/nonexistent/etcd' });
    await expect(start).rejects.toBeInstanceOf(EtcdNotInstalledError);
    await expect(start).rejects.toThrow('apt-get install etcd-server');
  });

  it('serves a healthy etcd, keeps its data and endpoint across restart, and leaves nothing behind', { timeout: 60_000 }, async () => {
    const etcd = await startEtcd();
    const firstPid = etcd.pid;
    let client = new Etcd3({ hosts: etcd.endpoint });
    try {
      expect(etcd.endpoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(isRunning(firstPid)).toBe(true);
      await client.put('/k').value('v1').exec();
      client.close();

      await etcd.restart();
      expect(isRunning(firstPid)).toBe(false);
      expect(isRunning(etcd.pid)).toBe(true);
      client = new Etcd3({ hosts: etcd.endpoint });
      expect(await client.get('/k').string()).toBe('v1');
    } finally {
      client.close();
      await etcd.stop();
    }
    expect(isRunning(etcd.pid)).toBe(false);
    expect(existsSync(etcd.dataDir)).toBe(false);
  });

  it('starts independent instances side by side on different ports', { timeout: 60_000 }, async () => {
    const [a, b] = await Promise.all([startEtcd(), startEtcd()]);
    try {
      expect(a.endpoint).not.toBe(b.endpoint);
      const res = await Promise.all([a, b].map(async (e) => (await fetch(`${e.endpoint}/health`)).json()));
      expect(res).toEqual([{ health: 'true' }, { health: 'true' }]);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
  });
});

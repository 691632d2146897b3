import { existsSync, readFileSync } from 'node:fs';
import { get } from 'node:https';
import { Etcd3 } from 'etcd3';
import { describe, expect, it } from 'vitest';
import { EtcdNotInstalledError, startEtcd } from '@ipamkit/test-utils';
import { rawEtcd } from './support/etcd-clients.js';

/** GET /health over https trusting `ca` and presenting no client certificate: the status, or the error code. */
function healthWithoutClientCert(endpoint: string, ca: Buffer): Promise<string> {
  return new Promise((resolve) => {
    const req = get(new URL('/health', endpoint), { ca }, (res) => {
      res.resume();
      resolve(String(res.statusCode));
    });
    req.on('error', (err: Error & { code?: string }) => resolve(err.code ?? err.message));
  });
}

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

  it('serves mutual TLS with certificates it generated, refuses a client without one, and keeps both across restart', { timeout: 60_000 }, async () => {
    const etcd = await startEtcd({ tls: true });
    let client = rawEtcd(etcd);
    try {
      const tls = etcd.tls;
      expect(etcd.endpoint).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
      expect(tls).toBeDefined();
      if (tls === undefined) return;
      expect(readFileSync(tls.caFile, 'utf8')).toContain('BEGIN CERTIFICATE');
      expect(await healthWithoutClientCert(etcd.endpoint, readFileSync(tls.caFile))).not.toBe('200');
      await client.put('/k').value('v1').exec();
      client.close();
      await etcd.restart();
      client = rawEtcd(etcd);
      expect(await client.get('/k').string()).toBe('v1');
    } finally {
      client.close();
      await etcd.stop();
    }
  });

  it('enables authentication: no credentials are refused, root with the generated password gets in', { timeout: 60_000 }, async () => {
    const etcd = await startEtcd({ auth: true });
    const anonymous = new Etcd3({ hosts: etcd.endpoint });
    const root = rawEtcd(etcd);
    try {
      expect(etcd.auth?.username).toBe('root');
      expect(etcd.auth?.password).toMatch(/^[0-9a-f]{24}$/);
      await expect(anonymous.put('/k').value('v').exec()).rejects.toThrow(/user name is empty|permission denied|authentication/i);
      await root.put('/k').value('v').exec();
      expect(await root.get('/k').string()).toBe('v');
    } finally {
      anonymous.close();
      root.close();
      await etcd.stop();
    }
  });
});

import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { Agent } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RequestOptions } from 'node:https';
import { connectionAccess } from '../../src/kubeconfig/index.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'ipamkit-kube-access-'));
});
afterEach(() => {
  vi.useRealTimers();
  rmSync(dir, { recursive: true, force: true });
});

async function prepared(access: ReturnType<typeof connectionAccess>): Promise<RequestOptions> {
  const options: RequestOptions = { method: 'GET', headers: { accept: 'application/json' } };
  await access.prepare(options);
  return options;
}

describe('connectionAccess', () => {
  it('puts the CA, client certificate, key, server name and verification on one keep-alive agent', async () => {
    const access = connectionAccess({ server: 'https://k:6443', ca: Buffer.from('CA'), cert: Buffer.from('C'), key: Buffer.from('K'), tlsServerName: 'kube.test', insecure: false, source: 'test' });
    const first = await prepared(access);
    const second = await prepared(access);
    const agent = first.agent as Agent;
    expect(second.agent).toBe(agent);
    expect(agent.options).toMatchObject({ keepAlive: true, rejectUnauthorized: true, ca: Buffer.from('CA'), cert: Buffer.from('C'), key: Buffer.from('K'), servername: 'kube.test' });
    expect(first.headers).toEqual({ accept: 'application/json' });
    access.close();
  });

  it('sends a bearer token, or basic auth when there is no token', async () => {
    expect((await prepared(connectionAccess({ server: 'http://k', token: 't0k', insecure: false, source: 'test' }))).headers).toMatchObject({ authorization: 'Bearer t0k' });
    const basic = await prepared(connectionAccess({ server: 'http://k', username: 'u', password: 'p', insecure: false, source: 'test' }));
    expect(basic.headers).toMatchObject({ authorization: `Basic ${Buffer.from('u:p').toString('base64')}` });
  });

  it('gives the small HTTP/1.1 client the same credentials as headers of a JSON request', () => {
    const bearer = connectionAccess({ server: 'http://k', token: 't0k', insecure: false, source: 'test' });
    expect(bearer.direct?.headers()).toEqual({ accept: 'application/json', authorization: 'Bearer t0k' });
    const basic = connectionAccess({ server: 'http://k', username: 'u', password: 'p', insecure: false, source: 'test' });
    expect(basic.direct?.headers()).toEqual({ accept: 'application/json', authorization: `Basic ${Buffer.from('u:p').toString('base64')}` });
    const none = connectionAccess({ server: 'http://k', insecure: false, source: 'test' });
    expect(none.direct?.headers()).toEqual({ accept: 'application/json' });
    for (const a of [bearer, basic, none]) a.close();
  });

  it('re-reads a token file after a minute, as rotated service-account tokens need', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const tokenFile = path.join(dir, 'token');
    writeFileSync(tokenFile, 'second\n');
    const access = connectionAccess({ server: 'http://k', token: 'first', tokenFile, insecure: false, source: 'test' });
    expect((await prepared(access)).headers).toMatchObject({ authorization: 'Bearer first' });
    vi.setSystemTime(Date.now() + 30_000);
    expect((await prepared(access)).headers).toMatchObject({ authorization: 'Bearer first' });
    vi.setSystemTime(Date.now() + 31_000);
    expect((await prepared(access)).headers).toMatchObject({ authorization: 'Bearer second' });
  });
});

describe('connectionAccess: one connection pool per API server', () => {
  it('serves two accesses to one server over one connection, each request with its own credentials', async () => {
    const { createServer } = await import('node:http');
    const tokens: (string | undefined)[] = [];
    let connections = 0;
    const server = createServer((req, res) => {
      tokens.push(req.headers.authorization);
      res.setHeader('content-type', 'application/json');
      res.end('{}');
    });
    server.on('connection', () => {
      connections += 1;
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no port');
    const url = `http://127.0.0.1:${address.port}`;
    const get = async (access: ReturnType<typeof connectionAccess>): Promise<number> => {
      const direct = access.direct;
      if (direct === undefined) throw new Error('no direct access');
      return (await direct.client.request({ method: 'GET', url: new URL(`${url}/api`), headers: direct.headers(), timeoutMs: 5_000 })).status;
    };
    try {
      const reader = connectionAccess({ server: url, token: 'reader-token', insecure: false, source: 'test' });
      const datastore = connectionAccess({ server: url, token: 'datastore-token', insecure: false, source: 'test' });
      expect(datastore.direct?.client).toBe(reader.direct?.client);
      expect(await get(reader)).toBe(200);
      expect(await get(datastore)).toBe(200);
      expect(tokens).toEqual(['Bearer reader-token', 'Bearer datastore-token']);
      expect(connections).toBe(1);

      // The first to close leaves the pool to the other; the last closes it.
      reader.close();
      expect(await get(datastore)).toBe(200);
      datastore.close();
      await expect(get(datastore)).rejects.toThrow(/closed/);
      const later = connectionAccess({ server: url, insecure: false, source: 'test' });
      expect(later.direct?.client).not.toBe(datastore.direct?.client);
      expect(await get(later)).toBe(200);
      later.close();
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('keeps separate pools for another TLS identity: CA, client certificate, server name or verification', () => {
    const base = { server: 'https://k:6443', ca: Buffer.from('CA'), cert: Buffer.from('C'), key: Buffer.from('K'), tlsServerName: 'kube.test', insecure: false, source: 'test' };
    const first = connectionAccess(base);
    const same = connectionAccess({ ...base, ca: Buffer.from('CA'), token: 'another-token' });
    const others = [
      connectionAccess({ ...base, ca: Buffer.from('CA2') }),
      connectionAccess({ ...base, cert: Buffer.from('C2') }),
      connectionAccess({ ...base, key: Buffer.from('K2') }),
      connectionAccess({ ...base, tlsServerName: 'other.test' }),
      connectionAccess({ ...base, insecure: true }),
      connectionAccess({ ...base, server: 'https://k:6444' }),
    ];
    expect(same.direct?.client).toBe(first.direct?.client);
    const clients = new Set([first, ...others].map((a) => a.direct?.client));
    expect(clients.size).toBe(others.length + 1);
    for (const a of [first, same, ...others]) a.close();
  });
});

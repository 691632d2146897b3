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

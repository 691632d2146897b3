import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { TLSSocket } from 'node:tls';
import { join } from 'node:path';
import { generateEtcdCertificates } from '@ipamkit/test-utils';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Http1Client } from '../../src/http1/index.js';
import { rawTcpBindings } from '../../src/http1/raw-tcp-stream.js';

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

/** A server on 127.0.0.1 whose handler the test sets; counts the connections it accepted. */
async function serve(server: Server, scheme: 'http' | 'https' = 'http'): Promise<{ url: string; connections: () => number; sockets: Set<Socket>; setHandler(h: Handler): void; close(): Promise<void> }> {
  let handler: Handler = (_req, res) => res.end('{}');
  const sockets = new Set<Socket>();
  let count = 0;
  server.on('connection', (s: Socket) => {
    count += 1;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handler(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${scheme}://127.0.0.1:${port}`,
    connections: () => count,
    sockets,
    setHandler: (h) => (handler = h),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

it('finds libuv\'s TCP handle on this Node (so the suite below runs the direct path, not the fallback)', () => {
  expect(process.platform === 'linux' ? rawTcpBindings() : null).not.toBeNull();
});

describe.each([
  ['libuv TCP handle', false],
  ['node:net', true],
])('Http1Client over plain TCP (%s)', (_name, viaNet) => {
  let srv: Awaited<ReturnType<typeof serve>>;
  let client: Http1Client;
  beforeAll(async () => {
    srv = await serve(createHttpServer());
  });
  afterAll(async () => {
    await srv.close();
  });
  afterEach(() => client.close());

  it('sends method, path, query, headers and body, and reuses one keep-alive connection', async () => {
    client = new Http1Client({ viaNet });
    const seen: string[] = [];
    srv.setHandler((req, res, body) => {
      seen.push([req.method, req.url, req.headers['x-token'], req.headers['content-length'], body].map(String).join(' '));
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ echo: body }));
    });
    const before = srv.connections();
    for (let i = 0; i < 3; i++) {
      const r = await client.request({ method: 'POST', url: new URL(`${srv.url}/v3/kv/range?x=${i}`), headers: { 'x-token': 't' }, body: `{"i":${i}}`, timeoutMs: 5000 });
      expect(r.status).toBe(200);
      expect(JSON.parse(r.body.toString('utf8'))).toEqual({ echo: `{"i":${i}}` });
    }
    expect(seen).toEqual([0, 1, 2].map((i) => `POST /v3/kv/range?x=${i} t ${`{"i":${i}}`.length} {"i":${i}}`));
    expect(srv.connections() - before).toBe(1);
  });

  it('sends a text body with characters beyond ASCII, and a Buffer body, byte for byte with their lengths', async () => {
    client = new Http1Client({ viaNet });
    const seen: string[] = [];
    srv.setHandler((req, res, body) => {
      seen.push(`${req.headers['content-length'] ?? '-'} ${body}`);
      res.end('ok');
    });
    const text = '{"pod":"ünïcödé-😀","n":"∑"}';
    await client.request({ method: 'PUT', url: new URL(`${srv.url}/t`), body: text, timeoutMs: 5000 });
    await client.request({ method: 'POST', url: new URL(`${srv.url}/b`), body: Buffer.from(text), timeoutMs: 5000 });
    await client.request({ method: 'GET', url: new URL(`${srv.url}/g`), timeoutMs: 5000 });
    const bytes = Buffer.byteLength(text);
    expect(bytes).toBeGreaterThan(text.length);
    expect(seen).toEqual([`${bytes} ${text}`, `${bytes} ${text}`, '- ']);
  });

  it('opens at most maxConnectionsPerOrigin connections and queues the other requests', async () => {
    client = new Http1Client({ viaNet, maxConnectionsPerOrigin: 2 });
    let inFlight = 0;
    let most = 0;
    srv.setHandler((_req, res, body) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      setTimeout(() => {
        inFlight -= 1;
        res.end(body);
      }, 30);
    });
    const before = srv.connections();
    const answers = await Promise.all(
      Array.from({ length: 7 }, (_, i) => client.request({ method: 'POST', url: new URL(`${srv.url}/q`), body: String(i), timeoutMs: 10_000 })),
    );
    expect(answers.map((a) => a.body.toString())).toEqual(['0', '1', '2', '3', '4', '5', '6']);
    expect(most).toBe(2);
    expect(srv.connections() - before).toBe(2);
  });

  it('gives a queued request ETIMEDOUT when no connection frees in time, and frees the place of a failed one', async () => {
    client = new Http1Client({ viaNet, maxConnectionsPerOrigin: 1 });
    srv.setHandler((req, res) => {
      if (req.url === '/hang') return;
      res.end('ok');
    });
    const hanging = client.request({ method: 'GET', url: new URL(`${srv.url}/hang`), timeoutMs: 400 });
    const queued = client.request({ method: 'GET', url: new URL(`${srv.url}/ok`), timeoutMs: 100 });
    await expect(queued).rejects.toMatchObject({ code: 'ETIMEDOUT' });
    await expect(hanging).rejects.toMatchObject({ code: 'ETIMEDOUT' });
    const after = await client.request({ method: 'GET', url: new URL(`${srv.url}/ok`), timeoutMs: 5000 });
    expect(after.body.toString()).toBe('ok');
  });

  it('reads a chunked answer of a megabyte', async () => {
    client = new Http1Client({ viaNet });
    const big = 'x'.repeat(1 << 20);
    srv.setHandler((_req, res) => {
      res.write(big.slice(0, 1000));
      res.end(big.slice(1000));
    });
    const r = await client.request({ method: 'GET', url: new URL(`${srv.url}/big`), timeoutMs: 10_000 });
    expect(r.body.length).toBe(big.length);
  });

  it('opens a new connection after the server said connection: close, or closed an idle one', async () => {
    client = new Http1Client({ viaNet });
    srv.setHandler((_req, res) => {
      res.setHeader('connection', 'close');
      res.end('{}');
    });
    const before = srv.connections();
    await client.request({ method: 'GET', url: new URL(`${srv.url}/a`), timeoutMs: 5000 });
    await client.request({ method: 'GET', url: new URL(`${srv.url}/b`), timeoutMs: 5000 });
    expect(srv.connections() - before).toBe(2);

    srv.setHandler((_req, res) => res.end('{}'));
    await client.request({ method: 'GET', url: new URL(`${srv.url}/c`), timeoutMs: 5000 });
    for (const s of srv.sockets) s.destroy();
    await new Promise((r) => setTimeout(r, 100));
    const r = await client.request({ method: 'GET', url: new URL(`${srv.url}/d`), timeoutMs: 5000 });
    expect(r.status).toBe(200);
    expect(srv.connections() - before).toBe(4);
  });

  it('fails with ETIMEDOUT when no answer comes in time, and the next request still works', async () => {
    client = new Http1Client({ viaNet });
    srv.setHandler(() => undefined);
    await expect(client.request({ method: 'GET', url: new URL(`${srv.url}/slow`), timeoutMs: 200 })).rejects.toMatchObject({ code: 'ETIMEDOUT' });
    srv.setHandler((_req, res) => res.end('ok'));
    const r = await client.request({ method: 'GET', url: new URL(`${srv.url}/fast`), timeoutMs: 5000 });
    expect(r.body.toString()).toBe('ok');
  });

  it('fails with ECONNRESET when the server hangs up mid-answer', async () => {
    client = new Http1Client({ viaNet });
    srv.setHandler((req, res) => {
      res.setHeader('content-length', '100');
      res.write('partial');
      setTimeout(() => req.socket.destroy(), 20);
    });
    await expect(client.request({ method: 'GET', url: new URL(`${srv.url}/cut`), timeoutMs: 5000 })).rejects.toMatchObject({ code: 'ECONNRESET' });
  });

  it('fails with ECONNREFUSED where nobody listens', async () => {
    client = new Http1Client({ viaNet });
    const closed = await serve(createHttpServer());
    const url = closed.url;
    await closed.close();
    await expect(client.request({ method: 'GET', url: new URL(`${url}/x`), timeoutMs: 5000 })).rejects.toMatchObject({ code: 'ECONNREFUSED' });
  });

  it('refuses a header value with a line break, without quoting it', async () => {
    client = new Http1Client({ viaNet });
    const err = await client.request({ method: 'GET', url: new URL(`${srv.url}/x`), headers: { authorization: 'Bearer secret\r\nx-evil: 1' }, timeoutMs: 5000 }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'ERR_INVALID_CHAR' });
    expect((err as Error).message).not.toContain('secret');
  });

  it('does not keep the process alive with an idle connection, and refuses requests once closed', async () => {
    client = new Http1Client({ viaNet });
    srv.setHandler((_req, res) => res.end('{}'));
    await client.request({ method: 'GET', url: new URL(`${srv.url}/x`), timeoutMs: 5000 });
    client.close();
    await expect(client.request({ method: 'GET', url: new URL(`${srv.url}/x`), timeoutMs: 5000 })).rejects.toMatchObject({ code: 'ERR_CLIENT_CLOSED' });
  });
});

describe('Http1Client over TLS', () => {
  let dir: string;
  let srv: Awaited<ReturnType<typeof serve>>;
  let ca: Buffer;
  let untrusted: Buffer;
  let clientFiles: { cert: Buffer; key: Buffer };
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'http1-tls-'));
    const files = generateEtcdCertificates(dir);
    ca = readFileSync(files.caFile);
    untrusted = readFileSync(files.untrustedCaFile);
    clientFiles = { cert: readFileSync(files.certFile), key: readFileSync(files.keyFile) };
    const server = createHttpsServer({ cert: readFileSync(files.serverCertFile), key: readFileSync(files.serverKeyFile), ca, requestCert: true, rejectUnauthorized: false });
    srv = await serve(server, 'https');
    srv.setHandler((req, res) => {
      // Without a client certificate Node gives an empty object (its type says otherwise).
      const peer: { subject?: { CN?: unknown } } = req.socket instanceof TLSSocket ? req.socket.getPeerCertificate() : {};
      res.end(JSON.stringify({ clientCn: typeof peer.subject?.CN === 'string' ? peer.subject.CN : null }));
    });
  }, 60_000);
  afterAll(async () => {
    await srv.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('verifies the server against the given CA and presents a client certificate', async () => {
    const client = new Http1Client({ tls: { ca, ...clientFiles } });
    try {
      const r = await client.request({ method: 'GET', url: new URL(`${srv.url}/who`), timeoutMs: 10_000 });
      expect(JSON.parse(r.body.toString())).toEqual({ clientCn: expect.any(String) as string });
    } finally {
      client.close();
    }
  });

  it('refuses a server its CA did not sign, and accepts it only when told to skip verification', async () => {
    const strict = new Http1Client({ tls: { ca: untrusted } });
    const lax = new Http1Client({ tls: { rejectUnauthorized: false } });
    try {
      await expect(strict.request({ method: 'GET', url: new URL(`${srv.url}/x`), timeoutMs: 10_000 })).rejects.toMatchObject({ code: expect.stringMatching(/CERT|SIGN|ISSUER/) as string });
      const r = await lax.request({ method: 'GET', url: new URL(`${srv.url}/x`), timeoutMs: 10_000 });
      expect(r.status).toBe(200);
    } finally {
      strict.close();
      lax.close();
    }
  });

  it('resumes the TLS session on later connections to the origin, never on another client\'s', async () => {
    srv.setHandler((req, res) => res.end(JSON.stringify({ reused: req.socket instanceof TLSSocket && req.socket.isSessionReused() })));
    const client = new Http1Client({ tls: { ca, ...clientFiles } });
    const other = new Http1Client({ tls: { ca, ...clientFiles } });
    const reused = async (c: Http1Client): Promise<boolean> => (JSON.parse((await c.request({ method: 'GET', url: new URL(`${srv.url}/r`), timeoutMs: 10_000 })).body.toString()) as { reused: boolean }).reused;
    try {
      const before = srv.connections();
      // The first connection is a full handshake; three requests at once then open two more, both resumed.
      expect(await reused(client)).toBe(false);
      expect((await Promise.all([reused(client), reused(client), reused(client)])).filter(Boolean)).toHaveLength(2);
      expect(srv.connections() - before).toBe(3);
      // Sessions belong to the client (one server and TLS identity): another client starts afresh.
      expect(await reused(other)).toBe(false);
    } finally {
      client.close();
      other.close();
    }
  });

  it('checks the certificate against an explicit server name', async () => {
    const client = new Http1Client({ tls: { ca, servername: 'not-the-server.example' } });
    try {
      await expect(client.request({ method: 'GET', url: new URL(`${srv.url}/x`), timeoutMs: 10_000 })).rejects.toMatchObject({ code: 'ERR_TLS_CERT_ALTNAME_INVALID' });
    } finally {
      client.close();
    }
  });
});

import type { Agent as HttpAgent, ClientRequest, IncomingMessage, request as httpRequest } from 'node:http';
import type { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { atPath, Http1Client, type HttpUrl } from '../../http1/index.js';
import { endpointName, type EtcdConnection } from './connection.js';
import { EtcdWireError, type WireErrorKind } from './wire-error.js';

/** etcd's JSON error body (a gRPC status: code and message). */
interface GatewayError {
  readonly error?: string;
  readonly message?: string;
  readonly code?: number;
}

/** gRPC status codes etcd answers with (google.golang.org/grpc/codes). */
const INVALID_ARGUMENT = 3;
const PERMISSION_DENIED = 7;
const UNAUTHENTICATED = 16;

/** An answer of etcd's JSON gateway that was not a success. */
export function gatewayError(body: GatewayError, endpoint: string, status: number): EtcdWireError {
  const message = body.message ?? body.error ?? `HTTP ${status}`;
  return new EtcdWireError(gatewayKind(body.code, message), endpoint, message);
}

function gatewayKind(code: number | undefined, message: string): WireErrorKind {
  if (message.includes('required revision has been compacted')) return 'compacted';
  if (message.includes('authentication failed')) return 'bad-credentials';
  if (code === PERMISSION_DENIED || code === UNAUTHENTICATED || /invalid auth token|user name is empty/.test(message)) return 'unauthorized';
  if (code === INVALID_ARGUMENT) return 'invalid-argument';
  return 'unavailable';
}

/** A token etcd no longer accepts (expired, or etcd restarted with simple tokens): authenticate again. */
export function isStaleToken(err: unknown): boolean {
  return err instanceof EtcdWireError && err.kind === 'unauthorized' && /invalid auth token|user name is empty/.test(err.message);
}

/** Errors from TLS verification or the handshake: name them as such, they will not clear up by retrying. */
function transportMessage(err: Error): string {
  const code = (err as { code?: unknown }).code;
  const tls = typeof code === 'string' && (/CERT|SELF_SIGNED|TLS|SSL|ERR_SSL|HOSTNAME|ALTNAME|UNABLE_TO/.test(code) || code === 'EPROTO');
  const text = `${err.message}${typeof code === 'string' && !err.message.includes(code) ? ` (${code})` : ''}`;
  return tls ? `TLS handshake failed: ${text}; check the etcd CA certificate, client certificate and key, and server name` : text;
}

export interface StreamHandle {
  readonly request: ClientRequest;
  readonly response: IncomingMessage;
  readonly endpoint: string;
}

interface StreamAgents {
  readonly http: HttpAgent;
  readonly https: HttpsAgent;
  readonly request: typeof httpRequest;
  readonly httpsRequest: typeof httpsRequest;
}

/**
 * POSTs of JSON to etcd's gateway: unary calls through the small HTTP/1.1 client (keep-alive,
 * design/ipam-datastore.md, "A small HTTP/1.1 client"), watch streams through `node:http(s)` loaded
 * on the first watch; failover to the next endpoint on a connection error, a deadline per call, and
 * etcd's auth token in the Authorization header (fetched with the username/password, fetched again
 * when etcd rejects it).
 */
export class HttpTransport {
  private readonly client: Http1Client;
  /** Keep-alive agents for watch streams, one per scheme (endpoints may mix http and https). */
  private agents: Promise<StreamAgents> | undefined;
  private current = 0;
  private token: string | undefined;
  private authenticating: Promise<string> | undefined;
  private closed = false;
  private readonly streams = new Set<ClientRequest>();

  constructor(readonly connection: EtcdConnection) {
    this.client = new Http1Client({ tls: this.tlsOptions() });
  }

  private tlsOptions(): { ca?: Buffer; cert?: Buffer; key?: Buffer; servername?: string } {
    const tls = this.connection.tls;
    return {
      ...(tls?.ca === undefined ? {} : { ca: tls.ca }),
      ...(tls?.cert === undefined ? {} : { cert: tls.cert }),
      ...(tls?.key === undefined ? {} : { key: tls.key }),
      ...(tls?.serverName === undefined ? {} : { servername: tls.serverName }),
    };
  }

  private streamAgents(): Promise<StreamAgents> {
    this.agents ??= Promise.all([import('node:http'), import('node:https')]).then(([http, https]) => ({
      http: new http.Agent({ keepAlive: true }),
      https: new https.Agent({ keepAlive: true, ...this.tlsOptions() }),
      request: http.request,
      httpsRequest: https.request,
    }));
    return this.agents;
  }

  get target(): string {
    return this.connection.endpoints.map(endpointName).join(',');
  }

  /** A unary call: the parsed JSON answer. */
  call<T>(path: string, body: unknown): Promise<T> {
    return this.callWithJson<T>(path, JSON.stringify(body));
  }

  /** A unary call whose body is already JSON text (see `txnJson` in http-wire.ts). */
  async callWithJson<T>(path: string, payload: string): Promise<T> {
    return this.withToken(async (token) => {
      const { status, text, endpoint } = await this.post(path, payload, token);
      const parsed = parseJson(text, endpoint);
      if (status !== 200) throw gatewayError(parsed as GatewayError, endpoint, status);
      return parsed as T;
    });
  }

  /** A streaming call (watch): the open response; the caller reads and ends it. */
  async stream(path: string, body: unknown): Promise<StreamHandle> {
    return this.withToken(async (token) => {
      const handle = await this.open(path, body, token);
      if (handle.response.statusCode !== 200) {
        const text = await readAll(handle.response);
        throw gatewayError(parseJson(text, handle.endpoint) as GatewayError, handle.endpoint, handle.response.statusCode ?? 0);
      }
      this.streams.add(handle.request);
      handle.request.once('close', () => this.streams.delete(handle.request));
      return handle;
    });
  }

  /** Drops the auth token (etcd said it no longer knows it): the next request authenticates again. */
  forgetToken(): void {
    this.token = undefined;
  }

  close(): void {
    this.closed = true;
    for (const s of this.streams) s.destroy();
    this.streams.clear();
    this.client.close();
    void this.agents?.then((a) => {
      a.http.destroy();
      a.https.destroy();
    });
  }

  private async withToken<T>(op: (token: string | undefined) => Promise<T>): Promise<T> {
    if (this.connection.auth === undefined) return op(undefined);
    try {
      return await op(await this.authToken());
    } catch (err) {
      if (!isStaleToken(err)) throw err;
      this.token = undefined;
    }
    try {
      return await op(await this.authToken());
    } catch (err) {
      if (!isStaleToken(err)) throw err;
      this.token = undefined;
      // A token fresh from etcd rejected too: etcd is settling after a restart; the bounded
      // unavailable-retry tries again shortly.
      const endpoint = err instanceof EtcdWireError ? err.endpoint : this.target;
      throw new EtcdWireError('unavailable', endpoint, `etcd at ${endpoint} rejected a fresh auth token too; it may be restarting`, { cause: err });
    }
  }

  private authToken(): Promise<string> {
    if (this.token !== undefined) return Promise.resolve(this.token);
    this.authenticating ??= this.authenticate().finally(() => (this.authenticating = undefined));
    return this.authenticating;
  }

  private async authenticate(): Promise<string> {
    const auth = this.connection.auth;
    if (auth === undefined) throw new Error('authenticate() without credentials');
    const { status, text, endpoint } = await this.post('/v3/auth/authenticate', JSON.stringify({ name: auth.username, password: auth.password }), undefined);
    const parsed = parseJson(text, endpoint) as GatewayError & { token?: unknown };
    if (status !== 200) {
      const err = gatewayError(parsed, endpoint, status);
      if (err.kind === 'bad-credentials' || err.kind === 'invalid-argument') {
        throw new EtcdWireError('bad-credentials', endpoint, `etcd at ${endpoint} rejected the password of user ${JSON.stringify(auth.username)}: ${err.message}`);
      }
      throw err;
    }
    if (typeof parsed.token !== 'string' || parsed.token === '') {
      throw new EtcdWireError('unavailable', endpoint, `etcd at ${endpoint} returned no auth token: is authentication enabled there?`);
    }
    this.token = parsed.token;
    return parsed.token;
  }

  /** One request with its whole answer, within the call deadline, failing over between endpoints. */
  private async post(path: string, payload: string, token: string | undefined): Promise<{ status: number; text: string; endpoint: string }> {
    if (this.closed) throw new EtcdWireError('closed', this.target, 'the etcd client is closed');
    const headers: Record<string, string> = { 'content-type': 'application/json', ...(token === undefined ? {} : { authorization: token }) };
    return this.acrossEndpoints(async (url, endpoint, until) => {
      const progress = { sent: false };
      try {
        const response = await this.client.request({
          method: 'POST',
          url: atPath(url, path),
          headers,
          body: payload,
          timeoutMs: Math.max(1, until - Date.now()),
          onSent: () => {
            progress.sent = true;
          },
        });
        return { status: response.status, text: response.body.toString('utf8'), endpoint };
      } catch (err) {
        // Sent, so maybe applied: no failover then; the caller's bounded retry decides.
        if (progress.sent) throw new EtcdWireError('unavailable', endpoint, `etcd at ${endpoint}: ${transportMessage(err as Error)}`, { cause: err });
        throw err;
      }
    });
  }

  /** Tries `attempt` on each endpoint from the last good one until one answers or the deadline passes. */
  private async acrossEndpoints<T>(attempt: (url: HttpUrl, endpoint: string, until: number) => Promise<T>): Promise<T> {
    const endpoints = this.connection.endpoints;
    const failures: string[] = [];
    const until = Date.now() + this.connection.callTimeoutMs;
    for (let tried = 0; tried < endpoints.length; tried++) {
      const index = (this.current + tried) % endpoints.length;
      const url = endpoints[index];
      if (url === undefined) break;
      const endpoint = endpointName(url);
      try {
        const result = await attempt(url, endpoint, until);
        this.current = index;
        return result;
      } catch (err) {
        if (err instanceof EtcdWireError) throw err;
        failures.push(`${endpoint}: ${transportMessage(err as Error)}`);
        if (Date.now() >= until) break;
      }
    }
    throw new EtcdWireError('unavailable', this.target, `etcd unreachable (${failures.join('; ')})`);
  }

  /** Opens a watch stream; the call deadline covers only the answer's headers. */
  private async open(path: string, body: unknown, token: string | undefined): Promise<StreamHandle> {
    if (this.closed) throw new EtcdWireError('closed', this.target, 'the etcd client is closed');
    const payload = JSON.stringify(body);
    const agents = await this.streamAgents();
    return this.acrossEndpoints(async (url, endpoint, until) => ({ ...(await this.send(agents, url, path, payload, token, until)), endpoint }));
  }

  private send(
    agents: StreamAgents,
    url: HttpUrl,
    path: string,
    payload: string,
    token: string | undefined,
    until: number,
  ): Promise<{ request: ClientRequest; response: IncomingMessage }> {
    return new Promise((resolve, reject) => {
      const https = url.protocol === 'https:';
      const request = (https ? agents.httpsRequest : agents.request)(
        `${url.protocol}//${url.host}${path}`,
        {
          method: 'POST',
          agent: https ? agents.https : agents.http,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(payload),
            ...(token === undefined ? {} : { authorization: token }),
          },
        },
        (response) => {
          clearTimeout(timer);
          resolve({ request, response });
        },
      );
      const timer = setTimeout(
        () => request.destroy(Object.assign(new Error(`no answer within ${this.connection.callTimeoutMs} ms`), { code: 'ETIMEDOUT' })),
        Math.max(1, until - Date.now()),
      );
      // `on`, not `once`: an error after the answer arrived (a watch stream cut) must not go unhandled.
      request.on('error', (err) => {
        clearTimeout(timer);
        reject(err);
      });
      request.end(payload);
    });
  }
}

function readAll(response: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    response.on('data', (c: Buffer) => chunks.push(c));
    response.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    response.once('error', reject);
    response.once('aborted', () => reject(Object.assign(new Error('the answer was cut off'), { code: 'ECONNRESET' })));
  });
}

function parseJson(text: string, endpoint: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // Never quote the body: it is not etcd's JSON (a proxy's page?) and may carry anything.
    throw new EtcdWireError('unavailable', endpoint, `etcd at ${endpoint} answered with something that is not JSON (${text.length} bytes)`);
  }
}

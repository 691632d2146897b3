import { armAlarm } from '@ipamkit/models';
import { connectError, type ByteStream, type TlsSessionStore, type TlsSettings } from './byte-stream.js';
import { connectRawTcp, rawTcpBindings } from './raw-tcp-stream.js';
import { Http1ProtocolError, ResponseParser, type Http1Response } from './response-parser.js';
import type { HttpUrl } from './http-url.js';
import { connectSocket, isIpLiteral } from './socket-stream.js';

export interface Http1Request {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Absolute URL: scheme, host, port, path and query (a `URL`, or `parseHttpUrl`'s parts). */
  readonly url: HttpUrl;
  /** Header names and values; `host` and `content-length` are set by the client. */
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string | Buffer;
  /** The whole exchange (connect, send, the last byte of the answer) within this many ms. */
  readonly timeoutMs: number;
  /** Called once the request is handed to the connection: from then on the server may act on it. */
  readonly onSent?: () => void;
}

export interface Http1ClientOptions {
  /** For `https:` URLs. */
  readonly tls?: TlsSettings;
  /** Never use libuv's TCP handle directly (tests compare both paths). */
  readonly viaNet?: boolean;
  /**
   * Connections open to one origin at most (DEFAULT_MAX_CONNECTIONS_PER_ORIGIN); more requests at
   * once wait for one to be free. A short-lived process sets it low: each TLS connection is a handshake.
   */
  readonly maxConnectionsPerOrigin?: number;
}

const FORBIDDEN_IN_HEADER = /[\r\n\0]/;

/** A line break or NUL in a header's name or value (checked without compiling FORBIDDEN_IN_HEADER, which only the error uses). */
const hasForbiddenHeaderChar = (text: string): boolean => text.includes('\r') || text.includes('\n') || text.includes('\0');

/**
 * A small HTTP/1.1 client for unary JSON requests (design/ipam-datastore.md, "A small HTTP/1.1
 * client"): one request at a time per connection, idle connections kept per origin and reused,
 * bodies framed by content-length or chunked coding, at most `maxConnectionsPerOrigin` connections to
 * one origin. Plain connections to an IP address use
 * libuv's TCP handle directly; names and TLS go through `node:net` / `node:tls`, and a new TLS
 * connection resumes the origin's last session. Errors carry
 * Node's socket error codes (ECONNREFUSED, ETIMEDOUT, ECONNRESET, ...).
 */
/** Connections to one origin: the idle ones, how many exist, and requests waiting for one. */
interface OriginPool {
  readonly idle: Connection[];
  active: number;
  readonly waiters: (() => void)[];
  /** The origin's last TLS session, resumed by the next connection (`https:` only). */
  readonly tlsSessions: TlsSessionStore;
}

/** Connections per origin unless told otherwise: what browsers allow an HTTP/1.1 origin. */
export const DEFAULT_MAX_CONNECTIONS_PER_ORIGIN = 6;

export class Http1Client {
  private readonly pools = new Map<string, OriginPool>();
  private readonly maxPerOrigin: number;
  private closed = false;

  constructor(private readonly options: Http1ClientOptions = {}) {
    this.maxPerOrigin = Math.max(1, options.maxConnectionsPerOrigin ?? DEFAULT_MAX_CONNECTIONS_PER_ORIGIN);
  }

  async request(req: Http1Request): Promise<Http1Response> {
    if (this.closed) throw connectError('ERR_CLIENT_CLOSED', 'the HTTP client is closed');
    const bytes = requestBytes(req);
    const until = Date.now() + req.timeoutMs;
    const pool = this.poolOf(`${req.url.protocol}//${req.url.host}`);
    const connection = await this.acquire(pool, req.url, until);
    let response: Http1Response;
    try {
      response = await connection.exchange(bytes, Math.max(1, until - Date.now()), req.onSent);
    } catch (err) {
      connection.destroy();
      throw err;
    }
    if (response.keepAlive && this.open) {
      connection.park();
      pool.idle.push(connection);
      pool.waiters.shift()?.();
    } else {
      connection.destroy();
    }
    return response;
  }

  /** Closes every idle connection; requests in flight finish, their connections are not kept. */
  close(): void {
    this.closed = true;
    for (const pool of this.pools.values()) for (const c of [...pool.idle]) c.destroy();
  }

  /** Read anew after each await: `close()` may have run meanwhile. */
  private get open(): boolean {
    return !this.closed;
  }

  private poolOf(origin: string): OriginPool {
    const pool = this.pools.get(origin) ?? { idle: [], active: 0, waiters: [], tlsSessions: { session: undefined } };
    this.pools.set(origin, pool);
    return pool;
  }

  /** An idle connection, a new one while the origin has fewer than its limit, or the next one freed. */
  private async acquire(pool: OriginPool, url: HttpUrl, until: number): Promise<Connection> {
    for (;;) {
      const idle = pool.idle.pop();
      if (idle !== undefined) return idle;
      if (pool.active < this.maxPerOrigin) return this.connect(pool, url, Math.max(1, until - Date.now()));
      await waitForTurn(pool, until);
    }
  }

  private async connect(pool: OriginPool, url: HttpUrl, timeoutMs: number): Promise<Connection> {
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
    pool.active += 1;
    // Gone (closed by either side, failed, or never connected): its place goes to the next waiter.
    const connection = new Connection(() => {
      pool.active -= 1;
      const at = pool.idle.indexOf(connection);
      if (at >= 0) pool.idle.splice(at, 1);
      pool.waiters.shift()?.();
    });
    const raw = url.protocol === 'http:' && this.options.viaNet !== true && isIpLiteral(host) ? rawTcpBindings() : null;
    const tls = url.protocol === 'https:' ? (this.options.tls ?? {}) : undefined;
    try {
      connection.attach(
        raw === null
          ? await connectSocket({ host, port, timeoutMs, ...(tls === undefined ? {} : { tls, tlsSessions: pool.tlsSessions }) }, connection)
          : await connectRawTcp(raw, host, port, timeoutMs, connection),
      );
    } catch (err) {
      connection.destroy();
      throw err;
    }
    return connection;
  }
}

/** Resolves when a connection of `pool` is freed; fails with ETIMEDOUT at `until`. */
function waitForTurn(pool: OriginPool, until: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const turn = (): void => {
      timer.cancel();
      resolve();
    };
    const timer = armAlarm(Math.max(1, until - Date.now()), () => {
      const at = pool.waiters.indexOf(turn);
      if (at >= 0) pool.waiters.splice(at, 1);
      reject(connectError('ETIMEDOUT', 'no connection became free in time'));
    });
    pool.waiters.push(turn);
  });
}

/**
 * The request as it goes on the wire: head and body in one buffer, each encoded straight into it
 * (design/ipam-datastore.md, "Allocation cost on etcd: the seventh round (2026-12-02)").
 */
function requestBytes(req: Http1Request): Buffer {
  const body = req.body;
  const bodyBytes = body === undefined ? 0 : typeof body === 'string' ? Buffer.byteLength(body) : body.length;
  const head = requestHead(req, body === undefined ? undefined : bodyBytes);
  const bytes = Buffer.allocUnsafe(head.length + bodyBytes);
  bytes.write(head, 0, 'latin1');
  if (typeof body === 'string') bytes.write(body, head.length, 'utf8');
  else body?.copy(bytes, head.length);
  return bytes;
}

/** The head, `content-length: bodyBytes` included when the request has a body. */
function requestHead(req: Http1Request, bodyBytes: number | undefined): string {
  const lines = [`${req.method} ${req.url.pathname}${req.url.search} HTTP/1.1`, `host: ${req.url.host}`];
  for (const [name, value] of Object.entries(req.headers ?? {})) {
    const lower = name.toLowerCase();
    if (lower === 'host' || lower === 'content-length') continue;
    if (hasForbiddenHeaderChar(name) || hasForbiddenHeaderChar(value)) {
      // Never quote the value: it may be a credential.
      throw new Http1ProtocolError(`header ${JSON.stringify(name.replace(FORBIDDEN_IN_HEADER, '?'))} holds a line break or NUL`, 'ERR_INVALID_CHAR');
    }
    lines.push(`${name}: ${value}`);
  }
  if (bodyBytes !== undefined) lines.push(`content-length: ${bodyBytes}`);
  return `${lines.join('\r\n')}\r\n\r\n`;
}

interface Exchange {
  readonly parser: ResponseParser;
  readonly resolve: (response: Http1Response) => void;
  readonly reject: (error: Error) => void;
}

/** One connection: at most one exchange at a time; idle, it only listens for the peer's close. */
class Connection {
  private stream: ByteStream | undefined;
  private current: Exchange | undefined;
  private gone = false;

  /** `onGone` runs once, when the connection can no longer carry a request. */
  constructor(private readonly onGone: () => void) {}

  attach(stream: ByteStream): void {
    if (this.gone) stream.destroy();
    else this.stream = stream;
  }

  exchange(bytes: Buffer, timeoutMs: number, onSent: (() => void) | undefined): Promise<Http1Response> {
    const stream = this.stream;
    if (stream === undefined || this.gone) return Promise.reject(connectError('ECONNRESET', 'the connection is closed'));
    stream.setRef(true);
    return new Promise<Http1Response>((resolve, reject) => {
      const timer = armAlarm(timeoutMs, () => {
        this.fail(connectError('ETIMEDOUT', `no answer within ${timeoutMs} ms`));
      });
      const done = <T>(f: (v: T) => void) => (v: T): void => {
        timer.cancel();
        this.current = undefined;
        f(v);
      };
      this.current = { parser: new ResponseParser(), resolve: done(resolve), reject: done(reject) };
      stream.write(bytes);
      onSent?.();
    });
  }

  /** Idle now: it does not keep the process alive. */
  park(): void {
    this.stream?.setRef(false);
  }

  destroy(): void {
    this.stream?.destroy();
    this.markGone();
  }

  private markGone(): void {
    if (this.gone) return;
    this.gone = true;
    this.onGone();
  }

  onData(bytes: Buffer): void {
    const current = this.current;
    if (current === undefined) {
      // Bytes nobody asked for: the connection is no longer in a known state.
      this.fail(new Http1ProtocolError('the server sent bytes while no request was open'));
      return;
    }
    try {
      const response = current.parser.push(bytes);
      if (response !== undefined) current.resolve(response);
    } catch (err) {
      this.fail(err as Error);
    }
  }

  onClose(error: NodeJS.ErrnoException | undefined): void {
    this.markGone();
    const current = this.current;
    if (current === undefined) return;
    if (error !== undefined) {
      current.reject(error);
      return;
    }
    try {
      current.resolve(current.parser.end());
    } catch (err) {
      current.reject(err as Error);
    }
  }

  private fail(error: Error): void {
    const current = this.current;
    this.destroy();
    current?.reject(error);
  }
}

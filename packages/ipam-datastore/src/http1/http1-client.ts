import { connectError, type ByteStream, type TlsSettings } from './byte-stream.js';
import { connectRawTcp, rawTcpBindings } from './raw-tcp-stream.js';
import { Http1ProtocolError, ResponseParser, type Http1Response } from './response-parser.js';
import { connectSocket, isIpLiteral } from './socket-stream.js';

export interface Http1Request {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Absolute URL: scheme, host, port, path and query. */
  readonly url: URL;
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
}

const FORBIDDEN_IN_HEADER = /[\r\n\0]/;

/**
 * A small HTTP/1.1 client for unary JSON requests (design/ipam-datastore.md, "A small HTTP/1.1
 * client"): one request at a time per connection, idle connections kept per origin and reused,
 * bodies framed by content-length or chunked coding. Plain connections to an IP address use
 * libuv's TCP handle directly; names and TLS go through `node:net` / `node:tls`. Errors carry
 * Node's socket error codes (ECONNREFUSED, ETIMEDOUT, ECONNRESET, ...).
 */
export class Http1Client {
  private readonly idle = new Map<string, Connection[]>();
  private closed = false;

  constructor(private readonly options: Http1ClientOptions = {}) {}

  async request(req: Http1Request): Promise<Http1Response> {
    if (this.closed) throw connectError('ERR_CLIENT_CLOSED', 'the HTTP client is closed');
    const head = requestHead(req);
    const origin = `${req.url.protocol}//${req.url.host}`;
    const until = Date.now() + req.timeoutMs;
    const connection = this.takeIdle(origin) ?? (await this.connect(req.url, req.timeoutMs));
    const response = await connection.exchange(head, req.body, Math.max(1, until - Date.now()), req.onSent);
    if (response.keepAlive && this.open) {
      const list = this.idle.get(origin) ?? [];
      list.push(connection);
      this.idle.set(origin, list);
      connection.park(() => {
        const at = list.indexOf(connection);
        if (at >= 0) list.splice(at, 1);
      });
    } else {
      connection.destroy();
    }
    return response;
  }

  /** Read anew after each await: `close()` may have run meanwhile. */
  private get open(): boolean {
    return !this.closed;
  }

  private takeIdle(origin: string): Connection | undefined {
    const list = this.idle.get(origin);
    for (let c = list?.pop(); c !== undefined; c = list?.pop()) if (c.usable) return c;
    return undefined;
  }

  /** Closes every idle connection; requests in flight finish, their connections are not kept. */
  close(): void {
    this.closed = true;
    for (const list of this.idle.values()) for (const c of list.splice(0)) c.destroy();
    this.idle.clear();
  }

  private async connect(url: URL, timeoutMs: number): Promise<Connection> {
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    const port = url.port === '' ? (url.protocol === 'https:' ? 443 : 80) : Number(url.port);
    const connection = new Connection();
    const raw = url.protocol === 'http:' && this.options.viaNet !== true && isIpLiteral(host) ? rawTcpBindings() : null;
    const tls = url.protocol === 'https:' ? (this.options.tls ?? {}) : undefined;
    connection.attach(
      raw === null
        ? await connectSocket({ host, port, timeoutMs, ...(tls === undefined ? {} : { tls }) }, connection)
        : await connectRawTcp(raw, host, port, timeoutMs, connection),
    );
    return connection;
  }
}

function requestHead(req: Http1Request): string {
  const lines = [`${req.method} ${req.url.pathname}${req.url.search} HTTP/1.1`, `host: ${req.url.host}`];
  for (const [name, value] of Object.entries(req.headers ?? {})) {
    const lower = name.toLowerCase();
    if (lower === 'host' || lower === 'content-length') continue;
    if (FORBIDDEN_IN_HEADER.test(name) || FORBIDDEN_IN_HEADER.test(value)) {
      // Never quote the value: it may be a credential.
      throw new Http1ProtocolError(`header ${JSON.stringify(name.replace(FORBIDDEN_IN_HEADER, '?'))} holds a line break or NUL`, 'ERR_INVALID_CHAR');
    }
    lines.push(`${name}: ${value}`);
  }
  if (req.body !== undefined) lines.push(`content-length: ${Buffer.byteLength(req.body)}`);
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
  private onIdleClose: (() => void) | undefined;

  get usable(): boolean {
    return !this.gone && this.stream !== undefined;
  }

  attach(stream: ByteStream): void {
    this.stream = stream;
  }

  exchange(head: string, body: string | Buffer | undefined, timeoutMs: number, onSent: (() => void) | undefined): Promise<Http1Response> {
    const stream = this.stream;
    if (stream === undefined || this.gone) return Promise.reject(connectError('ECONNRESET', 'the connection is closed'));
    this.onIdleClose = undefined;
    stream.setRef(true);
    return new Promise<Http1Response>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.fail(connectError('ETIMEDOUT', `no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      const done = <T>(f: (v: T) => void) => (v: T): void => {
        clearTimeout(timer);
        this.current = undefined;
        f(v);
      };
      this.current = { parser: new ResponseParser(), resolve: done(resolve), reject: done(reject) };
      const bytes = body === undefined ? Buffer.from(head, 'latin1') : Buffer.concat([Buffer.from(head, 'latin1'), typeof body === 'string' ? Buffer.from(body, 'utf8') : body]);
      stream.write(bytes);
      onSent?.();
    });
  }

  /** Idle now: unref'd, and `dropped` runs if the peer closes it. */
  park(dropped: () => void): void {
    this.onIdleClose = dropped;
    this.stream?.setRef(false);
  }

  destroy(): void {
    this.gone = true;
    this.stream?.destroy();
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
    this.gone = true;
    const current = this.current;
    if (current === undefined) {
      this.onIdleClose?.();
      this.onIdleClose = undefined;
      return;
    }
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
    if (current !== undefined) current.reject(error);
    else {
      this.onIdleClose?.();
      this.onIdleClose = undefined;
    }
  }
}

/**
 * A connected byte stream, as the HTTP/1.1 client needs it: write, hear data and the end, close.
 * Two implementations: libuv's TCP handle used directly (`raw-tcp-stream.ts`) and a `node:net` or
 * `node:tls` socket (`socket-stream.ts`).
 */
export interface ByteStream {
  /** Queues bytes; a failure arrives through `onClose`. */
  write(bytes: Buffer): void;
  /** Closes at once; `onClose` is not called for a close the owner asked for. */
  destroy(): void;
  /** Whether an idle stream keeps the process alive. */
  setRef(ref: boolean): void;
}

export interface ByteStreamEvents {
  onData(bytes: Buffer): void;
  /** The peer ended the stream (no error) or it failed (`error`); called at most once. */
  onClose(error: NodeJS.ErrnoException | undefined): void;
}

export interface ConnectTarget {
  /** Host name or IP address (IPv6 without brackets). */
  readonly host: string;
  readonly port: number;
  /** TLS settings; undefined for plain TCP. */
  readonly tls?: TlsSettings;
  /** Milliseconds to wait for the connection (and the TLS handshake). */
  readonly timeoutMs: number;
  /**
   * TLS only: a session an earlier connection to the same origin and TLS identity got, offered for
   * resumption, and where the sessions (tickets) this connection gets go (design/ipam-datastore.md,
   * "TLS sessions resumed").
   */
  readonly tlsSessions?: TlsSessionStore;
}

/** The last TLS session one origin gave this client. */
export interface TlsSessionStore {
  session: Buffer | undefined;
}

/** What a TLS connection verifies and presents (PEM bytes). */
export interface TlsSettings {
  readonly ca?: Buffer | string;
  readonly cert?: Buffer | string;
  readonly key?: Buffer | string;
  /** The name the server certificate must carry (defaults to the host, when it is a name). */
  readonly servername?: string;
  /** False only for a kubeconfig's `insecure-skip-tls-verify`. */
  readonly rejectUnauthorized?: boolean;
}

/** An error with Node's usual `code`, as `node:net` would raise it. */
export function connectError(code: string, message: string): NodeJS.ErrnoException {
  return Object.assign(new Error(message), { code });
}

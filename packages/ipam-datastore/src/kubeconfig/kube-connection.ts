import { parseHttpUrl } from '../http1/http-url.js';

/**
 * Where and how to reach the API server, as the small loader reads it. It holds secrets: never log
 * it, never put a field of it into a message except `server` (through `displayServer`) and `source`.
 */
export interface KubeConnection {
  /** The API server URL, without a trailing slash. */
  readonly server: string;
  readonly token?: string;
  /** A file holding the bearer token, re-read while the process runs (bound tokens rotate). */
  readonly tokenFile?: string;
  readonly username?: string;
  readonly password?: string;
  readonly ca?: Buffer;
  readonly cert?: Buffer;
  readonly key?: Buffer;
  readonly insecure: boolean;
  readonly tlsServerName?: string;
  /** What it was read from, for messages: a kubeconfig path or "the in-cluster service account". */
  readonly source: string;
}

/** What loading a kubeconfig gives: a connection we can use ourselves, or a user only client-node can serve. */
export type KubeconfigLoad =
  | { readonly type: 'connection'; readonly connection: KubeConnection }
  | { readonly type: 'credential-plugin'; readonly path: string; readonly mechanism: 'exec' | 'auth-provider' };

/** The server URL for messages: any `user:pass@` removed. */
export function displayServer(server: string): string {
  try {
    const url = parseHttpUrl(server);
    if (!(url instanceof URL)) return `${url.protocol}//${url.host}${url.pathname}${url.search}`.replace(/\/$/, '');
    url.username = '';
    url.password = '';
    return url.toString().replace(/\/$/, '');
  } catch {
    return '(an invalid server URL)';
  }
}

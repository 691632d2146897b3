import type { Agent, OutgoingHttpHeaders } from 'node:http';
import { readFileSync } from 'node:fs';
import type { RequestOptions } from 'node:https';
import { Http1Client } from '../http1/index.js';
import type { KubeConnection } from './kube-connection.js';

/** How one request reaches the API server: the transport fills its options from this. */
export interface KubeAccess {
  /** The API server URL, without a trailing slash (may hold user info: messages use `displayServer`). */
  readonly server: string;
  /**
   * Unary requests without `node:http(s)`: the small HTTP/1.1 client holding the TLS material, and
   * the Authorization header value. Present for the small loader's connections; absent for
   * client-node's (exec plugins, auth providers), which go through `prepare`.
   */
  readonly direct?: DirectKubeAccess;
  /** Adds the TLS agent and the credentials to one request's options (`node:http(s)`: watches, client-node). */
  prepare(options: RequestOptions): Promise<void>;
  /** Frees idle keep-alive sockets (requests in flight, such as watches, run to their end). */
  close(): void;
}

export interface DirectKubeAccess {
  readonly client: Http1Client;
  /** The headers of one JSON request: `accept`, and `authorization` when the user has credentials. */
  headers(): Record<string, string>;
}

function isHeaderList(h: OutgoingHttpHeaders | readonly string[]): h is readonly string[] {
  return Array.isArray(h);
}

// Bound service-account tokens rotate on disk; re-read at most this often, as client-go does.
const TOKEN_FILE_REREAD_MS = 60_000;

/**
 * Access with the small loader's connection: one keep-alive agent carrying the CA, client
 * certificate, key, server name and insecure flag, and the bearer token (or basic auth) as a
 * header. `node:http(s)` is loaded on the first request: a CNI call that never talks to the API
 * server pays nothing for TLS (design/ipam-datastore.md, "Kubernetes backend: kubeconfig loading").
 */
export function connectionAccess(conn: KubeConnection): KubeAccess {
  let agent: Promise<Agent> | undefined;
  let token = conn.token;
  let tokenReadAt = Date.now();

  const makeAgent = async (): Promise<Agent> => {
    if (conn.server.startsWith('http:')) {
      const http = await import('node:http');
      return new http.Agent({ keepAlive: true });
    }
    const https = await import('node:https');
    return new https.Agent({
      keepAlive: true,
      rejectUnauthorized: !conn.insecure,
      ...(conn.ca === undefined ? {} : { ca: conn.ca }),
      ...(conn.cert === undefined ? {} : { cert: conn.cert }),
      ...(conn.key === undefined ? {} : { key: conn.key }),
      ...(conn.tlsServerName === undefined ? {} : { servername: conn.tlsServerName }),
    });
  };

  const client = new Http1Client({
    tls: {
      rejectUnauthorized: !conn.insecure,
      ...(conn.ca === undefined ? {} : { ca: conn.ca }),
      ...(conn.cert === undefined ? {} : { cert: conn.cert }),
      ...(conn.key === undefined ? {} : { key: conn.key }),
      ...(conn.tlsServerName === undefined ? {} : { servername: conn.tlsServerName }),
    },
  });

  const currentToken = (): string | undefined => {
    if (conn.tokenFile !== undefined && Date.now() - tokenReadAt > TOKEN_FILE_REREAD_MS) {
      try {
        token = readFileSync(conn.tokenFile, 'utf8').trim();
        tokenReadAt = Date.now();
      } catch {
        // Keep the last token: the kubelet rewrites the file by rename, a failed read is momentary.
      }
    }
    return token;
  };

  const authorization = (): string | undefined => {
    const bearer = currentToken();
    if (bearer !== undefined) return `Bearer ${bearer}`;
    if (conn.username !== undefined) return `Basic ${Buffer.from(`${conn.username}:${conn.password ?? ''}`).toString('base64')}`;
    return undefined;
  };

  return {
    server: conn.server,
    direct: {
      client,
      headers() {
        const value = authorization();
        return value === undefined ? { accept: 'application/json' } : { accept: 'application/json', authorization: value };
      },
    },
    async prepare(options) {
      agent ??= makeAgent();
      options.agent = await agent;
      const prior = options.headers;
      const headers: OutgoingHttpHeaders = prior === undefined || isHeaderList(prior) ? {} : { ...prior };
      const value = authorization();
      if (value !== undefined) headers['authorization'] = value;
      options.headers = headers;
    },
    close() {
      client.close();
      void agent?.then((a) => {
        for (const sockets of Object.values(a.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
      });
    },
  };
}

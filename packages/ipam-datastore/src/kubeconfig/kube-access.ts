import type { Agent, OutgoingHttpHeaders } from 'node:http';
import { readFileSync } from 'node:fs';
import { definedFields } from '@ipamkit/models';
import type { RequestOptions } from 'node:https';
import { Http1Client, joinedTo, type HttpUrl } from '../http1/index.js';
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
  /** The absolute URL of an API path (and query), split without a WHATWG `URL` (`joinedTo`: the server split once). */
  url(pathAndQuery: string): HttpUrl;
}

function isHeaderList(h: OutgoingHttpHeaders | readonly string[]): h is readonly string[] {
  return Array.isArray(h);
}

// Bound service-account tokens rotate on disk; re-read at most this often, as client-go does.
const TOKEN_FILE_REREAD_MS = 60_000;

/** What a connection to the API server is made of: the same for two accesses means one pool serves both. */
type ConnectionIdentity = Pick<KubeConnection, 'server' | 'insecure' | 'tlsServerName' | 'ca' | 'cert' | 'key'>;

interface SharedClient {
  readonly identity: ConnectionIdentity;
  readonly client: Http1Client;
  users: number;
}

/**
 * The HTTP clients of this process, one per server and TLS identity, counted by the accesses using
 * them (design/ipam-datastore.md, "One connection pool per API server"). A CNI call reads its pod
 * through one access and allocates through the datastore's: sharing, the datastore's requests reuse
 * the reader's idle connections instead of opening (and on TLS, handshaking) their own. Credentials
 * that travel in headers (tokens, basic auth) are not part of the identity: they go with each request.
 */
const sharedClients: SharedClient[] = [];

const sameBytes = (a: Buffer | undefined, b: Buffer | undefined): boolean => (a === undefined || b === undefined ? a === b : a.equals(b));
const sameIdentity = (a: ConnectionIdentity, b: ConnectionIdentity): boolean =>
  a.server === b.server && a.insecure === b.insecure && a.tlsServerName === b.tlsServerName && sameBytes(a.ca, b.ca) && sameBytes(a.cert, b.cert) && sameBytes(a.key, b.key);

/** The TLS settings of a connection, as the shared client and the `node:https` agent take them. */
function tlsOptionsOf(conn: KubeConnection): { rejectUnauthorized: boolean; ca?: Buffer; cert?: Buffer; key?: Buffer; servername?: string } {
  return {
    rejectUnauthorized: !conn.insecure,
    ...definedFields({ ca: conn.ca, cert: conn.cert, key: conn.key, servername: conn.tlsServerName }),
  };
}

function takeSharedClient(conn: KubeConnection): Http1Client {
  const found = sharedClients.find((entry) => sameIdentity(entry.identity, conn));
  if (found !== undefined) {
    found.users += 1;
    return found.client;
  }
  const client = new Http1Client({ tls: tlsOptionsOf(conn) });
  sharedClients.push({ identity: conn, client, users: 1 });
  return client;
}

/** One access is done with the client: the last one closes it. */
function releaseSharedClient(client: Http1Client): void {
  const index = sharedClients.findIndex((entry) => entry.client === client);
  const entry = sharedClients[index];
  if (entry === undefined) return;
  entry.users -= 1;
  if (entry.users > 0) return;
  sharedClients.splice(index, 1);
  client.close();
}

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
    return new https.Agent({ keepAlive: true, ...tlsOptionsOf(conn) });
  };

  const client = takeSharedClient(conn);
  let released = false;

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
      url: joinedTo(conn.server),
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
      if (!released) {
        released = true;
        releaseSharedClient(client);
      }
      void agent?.then((a) => {
        for (const sockets of Object.values(a.freeSockets)) for (const socket of sockets ?? []) socket.destroy();
      });
    },
  };
}

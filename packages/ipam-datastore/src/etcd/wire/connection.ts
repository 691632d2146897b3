import { readFileSync } from 'node:fs';
import type { EtcdTlsConfig } from '../../create-datastore.js';
import { DatastoreConfigError } from '../../errors.js';
import { parseHttpUrl, type HttpUrl } from '../../http1/http-url.js';

/** What both etcd clients are opened with (design/ipam-datastore.md, "etcd TLS and authentication"). */
export interface EtcdConnection {
  /** Parsed client URLs, in failover order; never carry user info. */
  readonly endpoints: readonly HttpUrl[];
  readonly tls: TlsMaterial | undefined;
  readonly auth: { readonly username: string; readonly password: string } | undefined;
  /** Deadline of each unary call, ms. */
  readonly callTimeoutMs: number;
}

/** The PEM contents of the configured files (read once, at open; never logged). */
export interface TlsMaterial {
  readonly ca?: Buffer;
  readonly cert?: Buffer;
  readonly key?: Buffer;
  readonly serverName?: string;
}

const USER_INFO = /^([a-z][a-z0-9+.-]*:\/\/)?[^/?#]*@/i;

/** `endpoint` with any user info replaced, fit for an error message. */
export function redactEndpoint(endpoint: string): string {
  return endpoint.replace(USER_INFO, (_m, scheme: string | undefined) => `${scheme ?? ''}<redacted>@`);
}

/** The endpoints as URLs: http(s) only, no user info (it would be a credential in every log line). */
export function parseEndpoints(endpoints: readonly string[]): HttpUrl[] {
  if (endpoints.length === 0) throw new DatastoreConfigError('etcd datastore needs at least one endpoint');
  return endpoints.map((endpoint) => {
    let url: HttpUrl;
    try {
      url = parseHttpUrl(endpoint);
    } catch {
      throw new DatastoreConfigError(`etcd endpoint ${JSON.stringify(redactEndpoint(endpoint))} is not a URL: expected http://host:port or https://host:port`);
    }
    if (url.username !== '' || url.password !== '') {
      throw new DatastoreConfigError(
        `etcd endpoint ${JSON.stringify(redactEndpoint(endpoint))} carries user info: give the credentials as username and password instead`,
      );
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new DatastoreConfigError(`etcd endpoint ${JSON.stringify(redactEndpoint(endpoint))} must be http:// or https://`);
    }
    return url;
  });
}

/** The URL as written in messages: scheme, host and port. */
export function endpointName(url: HttpUrl): string {
  return `${url.protocol}//${url.host}`;
}

function readPem(file: string | undefined, what: string): Buffer | undefined {
  if (file === undefined || file === '') return undefined;
  try {
    return readFileSync(file);
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    throw new DatastoreConfigError(`cannot read the etcd ${what} file ${JSON.stringify(file)}${typeof code === 'string' ? ` (${code})` : ''}`);
  }
}

/** Reads the TLS files; refuses a half-configured client certificate and TLS settings on plain http endpoints. */
export function loadTls(tls: EtcdTlsConfig | undefined, endpoints: readonly HttpUrl[]): TlsMaterial | undefined {
  if (tls === undefined) return undefined;
  const configured = [tls.caFile, tls.certFile, tls.keyFile, tls.serverName].some((v) => v !== undefined && v !== '');
  if (!configured) return undefined;
  if ((tls.certFile ?? '') === '' !== ((tls.keyFile ?? '') === '')) {
    throw new DatastoreConfigError('etcd client certificate and key must be given together (tls.certFile and tls.keyFile)');
  }
  const plain = endpoints.find((u) => u.protocol !== 'https:');
  if (plain !== undefined) {
    throw new DatastoreConfigError(`etcd TLS settings are given but endpoint ${endpointName(plain)} is not https://`);
  }
  const ca = readPem(tls.caFile, 'CA certificate');
  const cert = readPem(tls.certFile, 'client certificate');
  const key = readPem(tls.keyFile, 'client key');
  return {
    ...(ca === undefined ? {} : { ca }),
    ...(cert === undefined ? {} : { cert }),
    ...(key === undefined ? {} : { key }),
    ...(tls.serverName === undefined || tls.serverName === '' ? {} : { serverName: tls.serverName }),
  };
}

export function loadAuth(username: string | undefined, password: string | undefined): EtcdConnection['auth'] {
  const hasUser = username !== undefined && username !== '';
  if (!hasUser && (password === undefined || password === '')) return undefined;
  if (!hasUser) throw new DatastoreConfigError('etcd password given without a username');
  return { username, password: password ?? '' };
}

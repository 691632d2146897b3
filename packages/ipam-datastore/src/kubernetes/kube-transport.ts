import type { IncomingMessage } from 'node:http';
import type { RequestOptions } from 'node:https';
import { parseWireJson, stringifyWireJson } from '@ipamkit/models';
import { formQuery } from '../http1/index.js';
import { displayServer, type DirectKubeAccess, type KubeAccess } from '../kubeconfig/index.js';
import { networkError, statusError } from './translate-kube-error.js';

/**
 * A unary request that has not been answered in this time fails as unavailable (the caller's
 * bounded retry decides); watches are not bound by it. A safety net against a stalled connection,
 * far above any answer a healthy API server gives (design/ipam-datastore.md, "A small HTTP/1.1 client").
 */
const REQUEST_TIMEOUT_MS = 60_000;

export interface KubeRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Absolute API path, e.g. `/apis/crd.projectcalico.org/v1/ipamblocks/10-0-0-0-26`. */
  readonly path: string;
  readonly query?: Record<string, string | undefined>;
  readonly body?: unknown;
  readonly contentType?: string;
  /** What a 404 / 409 names in the error (`ipamblocks/10-0-0-0-26`). */
  readonly identifier: string;
}

/**
 * HTTP to the API server with the access's credentials and TLS agent (`node:https`, keep-alive;
 * client-node only when the access is its fallback). We speak HTTP ourselves
 * rather than through the generated clients because they `JSON.parse` bodies and watch lines,
 * which rounds block sequence numbers above 2^53 (design/calico-stored-formats.md#encoding-rules); here bodies go through
 * the lossless wire JSON both ways. Non-2xx answers become our error classes right here, once.
 */
export class KubeTransport {
  /** The server URL for messages (no user info). */
  readonly server: string;

  constructor(private readonly access: KubeAccess) {
    this.server = displayServer(access.server);
  }

  close(): void {
    this.access.close();
  }

  /** The request's path and query, the query written as `URLSearchParams` writes it. */
  private static pathAndQuery(req: KubeRequest): string {
    const query = formQuery(req.query ?? {});
    return query === '' ? req.path : `${req.path}?${query}`;
  }

  /** Through `node:http(s)`, loaded now: watches, and client-node's access. */
  private async open(req: KubeRequest, signal?: AbortSignal): Promise<IncomingMessage> {
    const url = new URL(this.access.server + KubeTransport.pathAndQuery(req));
    const opts: RequestOptions = { method: req.method };
    await this.access.prepare(opts);
    const headers: Record<string, string> = { accept: 'application/json' };
    for (const [k, v] of Object.entries(opts.headers ?? {})) if (v !== undefined) headers[k] = String(v);
    const text = req.body === undefined ? undefined : stringifyWireJson(req.body);
    if (text !== undefined) {
      headers['content-type'] = req.contentType ?? 'application/json';
      headers['content-length'] = String(Buffer.byteLength(text));
    }
    const lib = url.protocol === 'http:' ? await import('node:http') : await import('node:https');
    return new Promise<IncomingMessage>((resolve, reject) => {
      const request = lib.request(url, { ...opts, headers, ...(signal === undefined ? {} : { signal }) }, resolve);
      request.on('error', (err) => reject(networkError(req.identifier, err, this.server)));
      request.end(text);
    });
  }

  /** One request; resolves to the decoded 2xx body, throws an IpamError otherwise. */
  async send(req: KubeRequest): Promise<unknown> {
    const direct = this.access.direct;
    if (direct !== undefined) return this.sendDirect(direct, req);
    const res = await this.open(req);
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of res) chunks.push(chunk as Buffer);
    } catch (err) {
      throw networkError(req.identifier, err, this.server);
    }
    const text = Buffer.concat(chunks).toString('utf8');
    const code = res.statusCode ?? 0;
    if (code < 200 || code > 299) throw statusError(code, text, req.identifier, this.server);
    return text === '' ? undefined : parseWireJson(text);
  }

  private async sendDirect(direct: DirectKubeAccess, req: KubeRequest): Promise<unknown> {
    const headers = direct.headers();
    const text = req.body === undefined ? undefined : stringifyWireJson(req.body);
    if (text !== undefined) headers['content-type'] = req.contentType ?? 'application/json';
    let status: number;
    let body: string;
    try {
      const res = await direct.client.request({
        method: req.method,
        url: direct.url(KubeTransport.pathAndQuery(req)),
        headers,
        timeoutMs: REQUEST_TIMEOUT_MS,
        ...(text === undefined ? {} : { body: text }),
      });
      status = res.status;
      body = res.body.toString('utf8');
    } catch (err) {
      throw networkError(req.identifier, err, this.server);
    }
    if (status < 200 || status > 299) throw statusError(status, body, req.identifier, this.server);
    return body === '' ? undefined : parseWireJson(body);
  }

  /** A streaming GET (watch): yields each JSON line decoded; ends when the server or `signal` does. */
  async *stream(req: KubeRequest, signal: AbortSignal): AsyncGenerator {
    let res: IncomingMessage;
    try {
      res = await this.open(req, signal);
    } catch (err) {
      if (signal.aborted) return;
      throw err;
    }
    const code = res.statusCode ?? 0;
    if (code !== 200) {
      const chunks: Buffer[] = [];
      for await (const chunk of res) chunks.push(chunk as Buffer);
      throw statusError(code, Buffer.concat(chunks).toString('utf8'), req.identifier, this.server);
    }
    let buffered = '';
    try {
      for await (const chunk of res) {
        buffered += (chunk as Buffer).toString('utf8');
        let nl = buffered.indexOf('\n');
        while (nl >= 0) {
          const line = buffered.slice(0, nl).trim();
          buffered = buffered.slice(nl + 1);
          if (line !== '') yield parseWireJson(line);
          nl = buffered.indexOf('\n');
        }
      }
    } catch (err) {
      if (signal.aborted) return;
      throw networkError(req.identifier, err, this.server);
    } finally {
      res.destroy();
    }
  }
}

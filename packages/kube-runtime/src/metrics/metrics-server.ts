import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

export interface MetricsServerOptions {
  readonly registry: Registry;
  /** 0 picks a free port. */
  readonly port: number;
  readonly host?: string;
  /** `/healthz` (liveness) answers 200 while this returns true, 503 otherwise. */
  readonly healthy: () => boolean;
  /** `/readyz` answers 200 while this returns true, 503 otherwise; defaults to `healthy`. */
  readonly ready?: () => boolean;
}

export interface MetricsServer {
  readonly port: number;
  close(): Promise<void>;
}

const probe = (res: http.ServerResponse, ok: boolean, failure: string): void => {
  res.writeHead(ok ? 200 : 503, { 'content-type': 'text/plain' }).end(ok ? 'ok\n' : `${failure}\n`);
};

/** `/metrics` (Prometheus text), `/healthz` and `/readyz` on plain node:http (design/kube-runtime.md "Metrics server"). */
export async function startMetricsServer(options: MetricsServerOptions): Promise<MetricsServer> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method !== 'GET') {
      res.writeHead(405).end();
      return;
    }
    if (path === '/metrics') {
      options.registry.metrics().then(
        (text) => res.writeHead(200, { 'content-type': options.registry.contentType }).end(text),
        (err: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(String(err)),
      );
      return;
    }
    if (path === '/healthz') {
      probe(res, options.healthy(), 'unhealthy');
      return;
    }
    if (path === '/readyz') {
      probe(res, (options.ready ?? options.healthy)(), 'not ready');
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

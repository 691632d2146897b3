import { readFileSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { get as httpsGet } from 'node:https';
import type { EtcdTlsFiles } from './etcd-certs.js';

/** Whether etcd's `/health` says healthy (over TLS with the client certificate when `tls` is given). */
export function etcdHealthy(endpoint: string, tls: EtcdTlsFiles | undefined): Promise<boolean> {
  return new Promise((resolve) => {
    const url = new URL('/health', endpoint);
    const options = tls === undefined ? {} : { ca: readFileSync(tls.caFile), cert: readFileSync(tls.certFile), key: readFileSync(tls.keyFile) };
    const req = (url.protocol === 'https:' ? httpsGet : httpGet)(url, { ...options, timeout: 2_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => {
        try {
          resolve((JSON.parse(body) as { health?: unknown }).health === 'true');
        } catch {
          resolve(false);
        }
      });
      res.on('error', () => resolve(false));
    });
    req.on('timeout', () => req.destroy());
    // not listening yet
    req.on('error', () => resolve(false));
  });
}

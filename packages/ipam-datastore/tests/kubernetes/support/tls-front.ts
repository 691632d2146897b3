import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { TLSSocket } from 'node:tls';
import type { KubeApiServer } from '@ipamkit/test-utils';

/** An HTTPS front for the plain-HTTP Kubernetes API test server, as a TLS API server would be. */
export interface TlsFront {
  readonly url: string;
  /** The subject CN of each client certificate the front accepted. */
  readonly clientNames: string[];
  close(): Promise<void>;
}

/**
 * Terminates TLS with `cert`/`key`, requires a client certificate signed by `ca`
 * (`requestCert`, `rejectUnauthorized`) and forwards each request to `backend`, authenticating it
 * there with the backend's token: the client certificate is what authenticates the caller.
 */
export async function startTlsFront(options: { backend: KubeApiServer; ca: Buffer; cert: Buffer; key: Buffer }): Promise<TlsFront> {
  const clientNames: string[] = [];
  const server = https.createServer({ ca: options.ca, cert: options.cert, key: options.key, requestCert: true, rejectUnauthorized: true }, (req, res) => {
    const cn = req.socket instanceof TLSSocket ? req.socket.getPeerCertificate().subject.CN : undefined;
    clientNames.push(typeof cn === 'string' ? cn : '');
    const headers = { ...req.headers, authorization: `Bearer ${options.backend.token}` };
    const upstream = http.request(`${options.backend.url}${req.url ?? '/'}`, { method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    clientNames,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

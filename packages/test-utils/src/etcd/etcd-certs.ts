import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Debian's openssl (the `openssl` package). */
export const DEFAULT_OPENSSL_BINARY = '/usr/bin/openssl';

/** PEM files for an etcd with mutual TLS, generated at test time (never checked in). */
export interface EtcdTlsFiles {
  /** The CA that signed the server and client certificates. */
  readonly caFile: string;
  /** Client certificate and key, signed by `caFile` (extended key usage: client auth). */
  readonly certFile: string;
  readonly keyFile: string;
  /** A second CA that signed nothing etcd trusts or presents: a "wrong CA" for failure tests. */
  readonly untrustedCaFile: string;
  /**
   * The server's certificate and key (subject alternative names 127.0.0.1 and localhost). Also good
   * for client auth: etcd's JSON gateway dials etcd's own gRPC port presenting it.
   */
  readonly serverCertFile: string;
  readonly serverKeyFile: string;
}

function run(openssl: string, args: string[]): void {
  execFileSync(openssl, args, { stdio: ['ignore', 'ignore', 'pipe'] });
}

/** An EC P-256 key (fast to make) and a certificate signing request for `cn`. */
function keyAndRequest(openssl: string, dir: string, name: string, cn: string): { key: string; csr: string } {
  const key = join(dir, `${name}.key`);
  const csr = join(dir, `${name}.csr`);
  run(openssl, ['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', key, '-out', csr, '-subj', `/CN=${cn}`]);
  return { key, csr };
}

function selfSignedCa(openssl: string, dir: string, name: string): { cert: string; key: string } {
  const key = join(dir, `${name}.key`);
  const cert = join(dir, `${name}.crt`);
  run(openssl, [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
    '-keyout', key, '-out', cert, '-days', '2', '-subj', `/CN=ipamkit test ${name}`,
    '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign',
  ]);
  return { cert, key };
}

function sign(openssl: string, dir: string, ca: { cert: string; key: string }, name: string, csr: string, extensions: string): string {
  const cert = join(dir, `${name}.crt`);
  const ext = join(dir, `${name}.ext`);
  writeFileSync(ext, extensions);
  run(openssl, ['x509', '-req', '-in', csr, '-CA', ca.cert, '-CAkey', ca.key, '-CAcreateserial', '-out', cert, '-days', '2', '-extfile', ext]);
  return cert;
}

/**
 * A CA, a server certificate for 127.0.0.1/localhost and a client certificate it signed, plus an
 * unrelated CA, all in `dir` (created if needed). Takes ~50 ms with EC keys.
 */
export function generateEtcdCertificates(dir: string, openssl: string = DEFAULT_OPENSSL_BINARY): EtcdTlsFiles {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const ca = selfSignedCa(openssl, dir, 'ca');
  const untrusted = selfSignedCa(openssl, dir, 'untrusted-ca');
  const server = keyAndRequest(openssl, dir, 'server', 'localhost');
  const serverCert = sign(openssl, dir, ca, 'server', server.csr, 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth,clientAuth\nkeyUsage=critical,digitalSignature,keyEncipherment\n');
  const client = keyAndRequest(openssl, dir, 'client', 'ipamkit-client');
  const clientCert = sign(openssl, dir, ca, 'client', client.csr, 'extendedKeyUsage=clientAuth\nkeyUsage=critical,digitalSignature,keyEncipherment\n');
  return {
    caFile: ca.cert,
    certFile: clientCert,
    keyFile: client.key,
    untrustedCaFile: untrusted.cert,
    serverCertFile: serverCert,
    serverKeyFile: server.key,
  };
}

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** PEM files made by Debian's `openssl` at test time, in a fresh directory. */
export interface TestCertificates {
  readonly dir: string;
  /** File paths (`ca.crt`, `server-ip.crt`, …) inside `dir`. */
  file(name: string): string;
  pem(name: string): Buffer;
  cleanup(): void;
}

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
}

function issue(dir: string, name: string, subject: string, extensions: string): void {
  openssl(dir, ['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject]);
  writeFileSync(path.join(dir, `${name}.ext`), extensions);
  openssl(dir, ['x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.crt', '-CAkey', 'ca.key', '-set_serial', String(Date.now()), '-days', '2', '-out', `${name}.crt`, '-extfile', `${name}.ext`]);
}

/**
 * A CA; a server certificate for 127.0.0.1 (`server-ip`); one valid only for the name `kube.test`
 * (`server-named`); a client certificate (`client`) and one from an unrelated CA (`stranger`).
 */
export function makeTestCertificates(): TestCertificates {
  const dir = mkdtempSync(path.join(tmpdir(), 'ipamkit-kube-tls-'));
  openssl(dir, ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '2', '-subj', '/CN=ipamkit-test-ca']);
  issue(dir, 'server-ip', '/CN=kube-apiserver', 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  issue(dir, 'server-named', '/CN=kube.test', 'subjectAltName=DNS:kube.test\nextendedKeyUsage=serverAuth\n');
  issue(dir, 'client', '/CN=calico-cni/O=ipamkit', 'extendedKeyUsage=clientAuth\n');
  openssl(dir, ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', 'stranger.key', '-out', 'stranger.crt', '-days', '2', '-subj', '/CN=stranger']);
  return {
    dir,
    file: (name) => path.join(dir, name),
    pem: (name) => readFileSync(path.join(dir, name)),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

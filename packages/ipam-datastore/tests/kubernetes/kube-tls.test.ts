import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UnauthorizedError, type IPPool } from '@ipamkit/models';
import { startKubeApiServer, type KubeApiServer } from '@ipamkit/test-utils';
import { createKubernetesDatastore } from '../../src/kubernetes/index.js';
import { CRD_DIR } from './kube-test-server.js';
import { calicoCniKubeconfig, type Fields } from './support/kubeconfig-text.js';
import { makeTestCertificates, type TestCertificates } from './support/test-certificates.js';
import { startTlsFront, type TlsFront } from './support/tls-front.js';

const POOL: IPPool = { name: 'pool-tls', cidr: '10.9.0.0/16', blockSize: 26 };

let certs: TestCertificates;
let backend: KubeApiServer;
let ipFront: TlsFront;
let namedFront: TlsFront;
let dir: string;

beforeAll(async () => {
  certs = makeTestCertificates();
  backend = await startKubeApiServer({ crdDirectories: [CRD_DIR], initialNamespaces: [] });
  ipFront = await startTlsFront({ backend, ca: certs.pem('ca.crt'), cert: certs.pem('server-ip.crt'), key: certs.pem('server-ip.key') });
  namedFront = await startTlsFront({ backend, ca: certs.pem('ca.crt'), cert: certs.pem('server-named.crt'), key: certs.pem('server-named.key') });
  dir = mkdtempSync(path.join(tmpdir(), 'ipamkit-kube-tls-kc-'));
  const seed = await createKubernetesDatastore({ kubeconfig: backend.writeKubeconfig(path.join(dir, 'backend')) });
  await seed.ipPools.create(POOL);
  await seed.close();
});

afterAll(async () => {
  await ipFront.close();
  await namedFront.close();
  await backend.close();
  certs.cleanup();
  rmSync(dir, { recursive: true, force: true });
});

let written = 0;
/** Writes a kubeconfig beside copies of nothing: file references are relative to `certs.dir`. */
function kubeconfig(cluster: Fields, user: Fields): string {
  written += 1;
  const file = path.join(certs.dir, `kubeconfig-${written}`);
  writeFileSync(file, calicoCniKubeconfig(cluster, user));
  return file;
}

const clientFiles: Fields = { 'client-certificate': 'client.crt', 'client-key': 'client.key' };

async function readPool(file: string): Promise<IPPool> {
  const ds = await createKubernetesDatastore({ kubeconfig: file });
  try {
    return await ds.ipPools.get(POOL.name);
  } finally {
    await ds.close();
  }
}

describe('client-certificate auth over TLS', () => {
  it('reads an object with a client certificate and key given as files relative to the kubeconfig', async () => {
    const before = ipFront.clientNames.length;
    const pool = await readPool(kubeconfig({ server: ipFront.url, 'certificate-authority': 'ca.crt' }, clientFiles));
    expect(pool.cidr).toBe(POOL.cidr);
    expect(ipFront.clientNames.slice(before)).toEqual(['calico-cni']);
  });

  it('reads an object with the CA, certificate and key given inline as -data', async () => {
    const b64 = (name: string): string => certs.pem(name).toString('base64');
    const file = kubeconfig(
      { server: ipFront.url, 'certificate-authority-data': b64('ca.crt') },
      { 'client-certificate-data': b64('client.crt'), 'client-key-data': b64('client.key') },
    );
    expect((await readPool(file)).cidr).toBe(POOL.cidr);
  });

  it('is refused without a client certificate, with an error naming the server and no retry loop hiding it', async () => {
    const err = await readPool(kubeconfig({ server: ipFront.url, 'certificate-authority': 'ca.crt' }, { token: 'not-a-certificate' })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnauthorizedError);
    expect((err as Error).message).toContain(ipFront.url);
    expect((err as Error).message).not.toContain('not-a-certificate');
  });

  it('is refused with a certificate from another CA', async () => {
    const err = await readPool(kubeconfig({ server: ipFront.url, 'certificate-authority': 'ca.crt' }, { 'client-certificate': 'stranger.crt', 'client-key': 'stranger.key' })).catch(
      (e: unknown) => e,
    );
    // The server's alert can arrive before or after our request is written: a TLS alert or a reset.
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(new RegExp(`the Kubernetes API server ${ipFront.url} (failed|\\()`));
    expect(ipFront.clientNames).not.toContain('stranger');
  });
});

describe('server verification', () => {
  it('refuses a server whose CA the kubeconfig does not name', async () => {
    const err = await readPool(kubeconfig({ server: ipFront.url }, clientFiles)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnauthorizedError);
    expect((err as Error).message).toMatch(/TLS with the Kubernetes API server https:\/\/127\.0\.0\.1:\d+ failed \((SELF_SIGNED_CERT_IN_CHAIN|UNABLE_TO_VERIFY_LEAF_SIGNATURE)\)/);
  });

  it('skips verification with insecure-skip-tls-verify', async () => {
    expect((await readPool(kubeconfig({ server: ipFront.url, 'insecure-skip-tls-verify': true }, clientFiles))).cidr).toBe(POOL.cidr);
  });

  it('checks the certificate against tls-server-name instead of the address', async () => {
    expect((await readPool(kubeconfig({ server: namedFront.url, 'certificate-authority': 'ca.crt', 'tls-server-name': 'kube.test' }, clientFiles))).cidr).toBe(POOL.cidr);
  });

  it('refuses the same server without tls-server-name (its certificate does not name 127.0.0.1)', async () => {
    const err = await readPool(kubeconfig({ server: namedFront.url, 'certificate-authority': 'ca.crt' }, clientFiles)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnauthorizedError);
    expect((err as Error).message).toContain('ERR_TLS_CERT_ALTNAME_INVALID');
  });
});

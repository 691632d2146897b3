import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UnauthorizedError } from '@ipamkit/models';
import { startKubeApiServer, type KubeApiServer } from '@ipamkit/test-utils';
import { KubeconfigError } from '../../src/kubeconfig/index.js';
import { createKubernetesDatastore } from '../../src/kubernetes/index.js';
import { CRD_DIR } from './kube-test-server.js';
import { calicoCniKubeconfig } from './support/kubeconfig-text.js';

const CANARY = 'canary-5d1e2b7f';

let server: KubeApiServer;
let dir: string;
beforeAll(async () => {
  server = await startKubeApiServer({ crdDirectories: [CRD_DIR], initialNamespaces: [] });
  dir = mkdtempSync(path.join(tmpdir(), 'ipamkit-kube-redaction-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

function kubeconfig(name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

async function failureOf(file: string): Promise<Error> {
  const ds = await createKubernetesDatastore({ kubeconfig: file });
  const err = await ds.ipPools.list().then(
    () => undefined,
    (e: unknown) => e,
  );
  await ds.close();
  if (!(err instanceof Error)) throw new Error('expected the read to fail');
  return err;
}

describe('API server refusals name the server, never the credentials', () => {
  it('a 401 for a wrong token', async () => {
    const err = await failureOf(kubeconfig('wrong-token', calicoCniKubeconfig({ server: server.url }, { token: CANARY })));
    expect(err).toBeInstanceOf(UnauthorizedError);
    expect(err.message).toBe(`ippools: the API server ${server.url} refused the request (HTTP 401): Unauthorized`);
  });

  it('a 401 for basic auth, with user info in the server URL stripped', async () => {
    const withUserInfo = server.url.replace('http://', `http://admin:${CANARY}@`);
    const err = await failureOf(kubeconfig('basic', calicoCniKubeconfig({ server: withUserInfo }, { username: 'admin', password: CANARY })));
    expect(err).toBeInstanceOf(UnauthorizedError);
    expect(err.message).toContain(server.url);
    expect(err.message).not.toContain(CANARY);
  });

  it('a 403', async () => {
    server.failNext({ status: 403, method: 'GET' });
    const err = await failureOf(kubeconfig('forbidden', calicoCniKubeconfig({ server: server.url }, { token: server.token })));
    expect(err).toBeInstanceOf(UnauthorizedError);
    expect(err.message).toContain(`the API server ${server.url} refused the request (HTTP 403)`);
    expect(err.message).not.toContain(server.token);
  });
});

describe('the client-node fallback passes no client-node message on', () => {
  it('an exec plugin that fails (printing a secret) gives an error naming the kubeconfig only', async () => {
    const plugin = kubeconfig('failing-plugin.cjs', `process.stderr.write(${JSON.stringify(CANARY)}); process.stdout.write(${JSON.stringify(CANARY)}); process.exit(1);\n`);
    const exec = `    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      command: ${JSON.stringify(process.execPath)}\n      args:\n      - ${JSON.stringify(plugin)}\n      interactiveMode: Never\n`;
    const file = kubeconfig('exec-failing', calicoCniKubeconfig({ server: server.url, 'insecure-skip-tls-verify': true }, {}, exec));
    const err = await failureOf(file);
    expect(err).toBeInstanceOf(KubeconfigError);
    expect(err.message).toMatch(new RegExp(`^kubeconfig ${file} \\(exec user\\): the credentials for ${server.url} could not be obtained \\(`));
    expect(err.message).not.toContain(CANARY);
  });
});

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UnauthorizedError } from '@ipamkit/models';
import { startKubeApiServer, type KubeApiServer } from '@ipamkit/test-utils';
import { createKubeReader, resolveKubeConnection } from '../../src/kube/kube-reader.js';

const CANARY = 'canary-0c4d9e21';

let server: KubeApiServer;
let dir: string;
beforeAll(async () => {
  server = await startKubeApiServer({ initialNamespaces: ['tenant'] });
  dir = mkdtempSync(join(tmpdir(), 'ipamkit-cni-reader-'));
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

function readerFor(overrides: Parameters<typeof resolveKubeConnection>[0], env: Record<string, string> = {}): ReturnType<typeof createKubeReader> {
  const target = resolveKubeConnection(overrides, env);
  if (target === undefined) throw new Error('expected a Kubernetes target');
  return createKubeReader(target);
}

describe('the pod reader on the shared kubeconfig loader', () => {
  it('reads a namespace with the kubeconfig the network config names', async () => {
    const reader = readerFor({ kubeconfig: server.writeKubeconfig(join(dir, 'kubeconfig')) });
    expect((await reader.getNamespace('tenant')).name).toBe('tenant');
  });

  it('reads with the in-cluster service account when nothing else is configured', async () => {
    const sa = join(dir, 'sa');
    mkdirSync(sa, { recursive: true });
    writeFileSync(join(sa, 'token'), `${server.token}\n`);
    // The API root override turns the in-cluster https URL into the test server's plain one.
    const reader = readerFor({ serviceAccountDir: sa, apiRoot: `${server.url}/api/v1` }, { KUBERNETES_SERVICE_HOST: '127.0.0.1', KUBERNETES_SERVICE_PORT: String(server.port) });
    expect((await reader.getNamespace('tenant')).name).toBe('tenant');
  });

  it('reports a refused token as UnauthorizedError naming the server, not the token', async () => {
    const reader = readerFor({ kubeconfig: server.writeKubeconfig(join(dir, 'kubeconfig')), token: CANARY });
    const err = await reader.getNamespace('tenant').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnauthorizedError);
    expect((err as Error).message).toBe(`GET /api/v1/namespaces/tenant: the API server ${server.url} refused the request (HTTP 401)`);
  });
});

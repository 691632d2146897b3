// An ADD on the Kubernetes datastore sends the pod's reads and the allocation's first reads
// together (design/cni.md, "Read-ahead"), counted at the wire: a proxy in front of the API test
// server holds every request until six are in flight (the client's connections to one server) or
// a while has passed, and records what was in flight beside each.
import http from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createDatastore } from '@ipamkit/ipam-datastore';
import { startKubeApiServer, type KubeApiServer } from '@ipamkit/test-utils';
import { silentLogger } from '@ipamkit/models';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireIpamLock } from '../src/runtime/ipam-lock.js';
import { addressesOf, call, netConf } from './helpers/cni-call.js';

const CRD_DIR = fileURLToPath(new URL('../../ipam-datastore/manifests/crds', import.meta.url));
/** Requests the plugin has in flight to one API server at most (DEFAULT_MAX_CONNECTIONS_PER_ORIGIN). */
const CONNECTIONS = 6;
const HOLD_MS = 400;

interface Seen {
  readonly request: string;
  /** The requests still unanswered when this one arrived. */
  readonly together: readonly string[];
}

/** Forwards to `target`, answering nothing until CONNECTIONS requests wait or HOLD_MS passed. */
function holdingProxy(target: URL): { server: http.Server; seen: Seen[]; reset(): void } {
  const seen: Seen[] = [];
  const waiting = new Map<string, () => void>();
  let next = 0;
  const releaseAll = (): void => {
    for (const go of [...waiting.values()]) go();
  };
  const server = http.createServer((req, res) => {
    const request = `${req.method ?? ''} ${decodeURIComponent((req.url ?? '').split('?')[0] ?? '')}`;
    const id = `${next++}`;
    seen.push({ request, together: [...waiting.keys()].map((k) => k.split('#')[1] ?? '') });
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const forward = (): void => {
        waiting.delete(`${id}#${request}`);
        const up = http.request({ host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        });
        up.end(Buffer.concat(chunks));
      };
      const timer = setTimeout(forward, HOLD_MS);
      waiting.set(`${id}#${request}`, () => {
        clearTimeout(timer);
        forward();
      });
      if (waiting.size >= CONNECTIONS) releaseAll();
    });
  });
  return { server, seen, reset: () => void seen.splice(0) };
}

describe('ADD on the Kubernetes datastore', () => {
  let api: KubeApiServer;
  let proxy: ReturnType<typeof holdingProxy>;
  let dir: string;
  let conf: Record<string, unknown>;

  beforeAll(async () => {
    api = await startKubeApiServer({ crdDirectories: [CRD_DIR] });
    dir = mkdtempSync(join(tmpdir(), 'cni-read-ahead-'));
    const ds = await createDatastore({ type: 'kubernetes', kubeconfig: api.writeKubeconfig(join(dir, 'admin-kubeconfig')) });
    await ds.ipPools.create({ name: 'pool-a', cidr: '10.61.0.0/24', blockSize: 26 });
    await ds.nodes.create({ name: 'node-a' });
    await ds.close();
    api.inject({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns1' } });
    for (const pod of ['warm', 'web', 'waits']) api.inject({ apiVersion: 'v1', kind: 'Pod', metadata: { name: pod, namespace: 'ns1' } });
    proxy = holdingProxy(new URL(api.url));
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    const address = proxy.server.address();
    const port = typeof address === 'object' && address !== null ? address.port : 0;
    const kubeconfig = join(dir, 'kubeconfig');
    writeFileSync(kubeconfig, api.kubeconfigYaml().replace(api.url, `http://127.0.0.1:${port}`), { mode: 0o600 });
    conf = netConf(
      { datastore_type: 'kubernetes', kubernetes: { kubeconfig }, ipam_lock_file: join(dir, 'ipam.lock') },
      { policy: { type: 'k8s' } },
    );
  }, 60_000);

  afterAll(async () => {
    await new Promise((resolve) => proxy.server.close(resolve));
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const add = (pod: string) => call({ command: 'ADD', conf, containerId: `c-${pod}`, args: `IgnoreUnknown=1;K8S_POD_NAMESPACE=ns1;K8S_POD_NAME=${pod}` });

  it('reads the IPAM config and the pools while the pod read is still out, and nothing twice', async () => {
    // The first pod claims the node's block and leaves the read hints that name it.
    expect((await add('warm')).exitCode).toBe(0);
    proxy.reset();
    const result = await add('web');
    expect(result.exitCode).toBe(0);
    expect(addressesOf(result.json)).toEqual(['10.61.0.1/26']);

    const seen = (request: string): Seen | undefined => proxy.seen.find((s) => s.request === request);
    const outTogether = (a: string, b: string): boolean => (seen(a)?.together.includes(b) ?? false) || (seen(b)?.together.includes(a) ?? false);
    const pod = 'GET /api/v1/namespaces/ns1/pods/web';
    // The allocation's first reads did not wait for the pod's answer.
    for (const read of ['GET /apis/crd.projectcalico.org/v1/ipamconfigs/default', 'GET /apis/crd.projectcalico.org/v1/ippools']) {
      expect(outTogether(pod, read), `${read} in flight with the pod read`).toBe(true);
    }
    // Every read once, then only the writes: the new handle, the block.
    expect(proxy.seen.slice(0, 8).map((s) => s.request).sort()).toEqual(
      [
        pod,
        'GET /api/v1/namespaces/ns1',
        'GET /apis/crd.projectcalico.org/v1/ipamconfigs/default',
        'GET /apis/crd.projectcalico.org/v1/ipreservations',
        'GET /api/v1/nodes/node-a',
        'GET /apis/crd.projectcalico.org/v1/ippools',
        'GET /apis/crd.projectcalico.org/v1/blockaffinities',
        'GET /apis/crd.projectcalico.org/v1/ipamblocks/10-61-0-0-26',
      ].sort(),
    );
    expect(proxy.seen.slice(8).map((s) => s.request)).toEqual([
      'POST /apis/crd.projectcalico.org/v1/ipamhandles',
      'PUT /apis/crd.projectcalico.org/v1/ipamblocks/10-61-0-0-26',
    ]);
  }, 60_000);

  it('reads the pod and its namespace before it takes the host lock (design/cni.md, "Read-ahead")', async () => {
    // Another call holds this node's lock: the ADD can read its pod, and nothing of the allocation.
    const unlock = await acquireIpamLock({ path: join(dir, 'ipam.lock'), log: silentLogger });
    let adding: ReturnType<typeof add> | undefined;
    try {
      proxy.reset();
      adding = add('waits');
      const pod = 'GET /api/v1/namespaces/ns1/pods/waits';
      for (let waited = 0; !proxy.seen.some((s) => s.request === pod); waited += 20) {
        if (waited > 20_000) throw new Error('the pod read never reached the server while the lock was held');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(proxy.seen.map((s) => s.request).filter((r) => r.includes('projectcalico.org'))).toEqual([]);
    } finally {
      unlock();
    }
    expect((await adding).exitCode).toBe(0);
  }, 60_000);

  it('deletes the container handle on DEL with one DELETE, no soft-delete PUT (design/ipam-datastore.md, "Deletes in one request")', async () => {
    expect((await add('web')).exitCode).toBe(0);
    proxy.reset();
    const del = await call({ command: 'DEL', conf, containerId: 'c-web', args: 'IgnoreUnknown=1;K8S_POD_NAMESPACE=ns1;K8S_POD_NAME=web' });
    expect(del.exitCode).toBe(0);
    const writes = proxy.seen.map((s) => s.request).filter((r) => !r.startsWith('GET '));
    expect(writes).toHaveLength(2);
    expect(writes[0]).toBe('PUT /apis/crd.projectcalico.org/v1/ipamblocks/10-61-0-0-26');
    expect(writes[1]).toMatch(/^DELETE \/apis\/crd\.projectcalico\.org\/v1\/ipamhandles\/.*c-web$/);
    expect(api.requests.filter((r) => r.path.includes('/ipamhandles/') && r.method === 'DELETE').at(-1)?.body).toMatchObject({ preconditions: { resourceVersion: expect.any(String) } });
  }, 60_000);
});

import { CoreV1Api } from '@kubernetes/client-node';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Reflector } from '../src/kubernetes/reflector.js';
import { type KubeFixture, startKube } from './kube-fixture.js';

let kube: KubeFixture | undefined;
let reflector: Reflector<NodeProjection> | undefined;
afterEach(async () => {
  await reflector?.stop();
  reflector = undefined;
  await kube?.server.close();
  kube = undefined;
});

interface NodeProjection {
  name: string;
  zone: string;
}

const nodeObject = (name: string, zone = 'z1') => ({ apiVersion: 'v1', kind: 'Node', metadata: { name, labels: { zone } } });
const project = (obj: unknown): NodeProjection | undefined => {
  const meta = (obj as { metadata?: { name?: string; labels?: Record<string, string> } }).metadata;
  return meta?.name === undefined ? undefined : { name: meta.name, zone: meta.labels?.['zone'] ?? '' };
};
const waitOpts = { timeout: 15_000, interval: 25 };

function nodeReflector(k: KubeFixture, events: string[]): Reflector<NodeProjection> {
  const core = k.kc.makeApiClient(CoreV1Api);
  return new Reflector<NodeProjection>({
    kc: k.kc,
    path: '/api/v1/nodes',
    list: (cont) => core.listNode({ limit: 2, ...(cont === undefined ? {} : { _continue: cont }) }),
    project,
    key: (n) => n.name,
    onChange: (n) => events.push(`change ${n.name} ${n.zone}`),
    onDelete: (n) => events.push(`delete ${n.name} ${n.zone}`),
    backoff: { baseMs: 15, capMs: 50, jitter: 1 / 3 },
  });
}

describe('Reflector', () => {
  it('lists every page, then reports changes and deletions with the last projection', async () => {
    kube = await startKube();
    for (const name of ['a', 'b', 'c']) kube.server.inject(nodeObject(name));
    const events: string[] = [];
    reflector = nodeReflector(kube, events);
    reflector.start();
    await reflector.synced;
    expect(reflector.hasSynced).toBe(true);
    expect([...reflector.items.keys()].sort()).toEqual(['a', 'b', 'c']);
    expect(events.sort()).toEqual(['change a z1', 'change b z1', 'change c z1']);
    events.length = 0;
    kube.server.inject(nodeObject('a', 'z2'));
    await kube.kc.makeApiClient(CoreV1Api).deleteNode({ name: 'b' });
    await vi.waitFor(() => expect(events).toEqual(['change a z2', 'delete b z1']), waitOpts);
    expect(reflector.items.get('a')?.zone).toBe('z2');
    expect(reflector.items.has('b')).toBe(false);
  }, 30_000);

  it('lists again after 410 Gone and reports what went missing meanwhile as deleted', async () => {
    kube = await startKube();
    kube.server.inject(nodeObject('a'));
    kube.server.inject(nodeObject('b'));
    const events: string[] = [];
    reflector = nodeReflector(kube, events);
    reflector.start();
    await reflector.synced;
    await reflector.stop();
    // While nobody watched: b is deleted, c is added, and the history is compacted.
    await kube.kc.makeApiClient(CoreV1Api).deleteNode({ name: 'b' });
    kube.server.inject(nodeObject('c'));
    kube.server.compact();
    events.length = 0;
    const second = nodeReflector(kube, events);
    // Seed the second reflector with the first one's view, then let it resume from a compacted version.
    for (const [key, value] of reflector.items) second.items.set(key, value);
    reflector = second;
    reflector.start();
    await reflector.synced;
    expect(events.sort()).toEqual(['change a z1', 'change c z1', 'delete b z1']);
    kube.server.failNext({ status: 500, method: 'GET', pathIncludes: '/api/v1/nodes', times: 2 });
    kube.server.compact();
    kube.server.inject(nodeObject('d'));
    await vi.waitFor(() => expect([...reflector!.items.keys()].sort()).toEqual(['a', 'c', 'd']), waitOpts);
  }, 30_000);

  it('stops promptly even before its first list succeeds', async () => {
    kube = await startKube();
    const port = kube.server.port;
    await kube.server.close();
    kube = undefined;
    const events: string[] = [];
    const { KubeConfig } = await import('@kubernetes/client-node');
    const kc = new KubeConfig();
    kc.loadFromOptions({ clusters: [{ name: 'c', server: `http://127.0.0.1:${String(port)}`, skipTLSVerify: true }], users: [{ name: 'u', token: 't' }], contexts: [{ name: 'x', cluster: 'c', user: 'u' }], currentContext: 'x' });
    const errors: unknown[] = [];
    const core = kc.makeApiClient(CoreV1Api);
    reflector = new Reflector<NodeProjection>({ kc, path: '/api/v1/nodes', list: () => core.listNode(), project, key: (n) => n.name, onError: (e) => errors.push(e), backoff: { baseMs: 15, capMs: 20, jitter: 1 / 3 } });
    reflector.start();
    await vi.waitFor(() => expect(errors.length).toBeGreaterThanOrEqual(3), waitOpts);
    await reflector.stop();
    reflector = undefined;
    expect(events).toEqual([]);
  }, 30_000);
});

describe('Reflector.stop', () => {
  it('returns while a list is still unanswered', async () => {
    let listCalled = false;
    const { KubeConfig } = await import('@kubernetes/client-node');
    const unanswered = new Reflector<NodeProjection>({
      kc: new KubeConfig(),
      path: '/api/v1/nodes',
      list: () => {
        listCalled = true;
        return new Promise(() => undefined);
      },
      project,
      key: (n) => n.name,
    });
    unanswered.start();
    await vi.waitFor(() => expect(listCalled).toBe(true));
    await expect(unanswered.stop()).resolves.toBeUndefined();
    expect(unanswered.hasSynced).toBe(false);
  });
});

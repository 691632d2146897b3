import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startKubeApiServer, type KubeApiServer } from '../../src/index.js';
import { at, call, openWatch, str, watchEvents, widget } from './http-client.js';

const FIXTURES = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures');
const WIDGETS = '/apis/test.ipamkit.io/v1/widgets';

let server: KubeApiServer;

beforeEach(async () => {
  server = await startKubeApiServer({ crdDirectories: [FIXTURES], maxHistory: 50, bookmarkIntervalMs: 50 });
});
afterEach(async () => {
  await server.close();
});

describe('startKubeApiServer: objects', () => {
  it('creates an object with uid, creationTimestamp, generation and a rising resourceVersion', async () => {
    const a = await call(server, 'POST', WIDGETS, widget('a'));
    const b = await call(server, 'POST', WIDGETS, widget('b'));
    expect(a.status).toBe(201);
    expect(str(a.body, 'metadata', 'uid')).toMatch(/^[0-9a-f-]{36}$/);
    expect(str(a.body, 'metadata', 'creationTimestamp')).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect(at(a.body, 'metadata', 'generation')).toBe(1);
    expect(BigInt(str(b.body, 'metadata', 'resourceVersion'))).toBeGreaterThan(BigInt(str(a.body, 'metadata', 'resourceVersion')));
    expect((await call(server, 'GET', `${WIDGETS}/a`)).body).toEqual(a.body);
  });

  it('keeps integers beyond 2^53 exact', async () => {
    await call(server, 'POST', WIDGETS, widget('big', { size: 1, counter: 1779000000000000001n }));
    expect(at((await call(server, 'GET', `${WIDGETS}/big`)).body, 'spec', 'counter')).toBe(1779000000000000001n);
  });

  it('answers AlreadyExists and NotFound with Status bodies', async () => {
    await call(server, 'POST', WIDGETS, widget('a'));
    const dup = await call(server, 'POST', WIDGETS, widget('a'));
    expect(dup.status).toBe(409);
    expect(dup.body).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'AlreadyExists', code: 409, message: 'widgets.test.ipamkit.io "a" already exists' });
    const missing = await call(server, 'GET', `${WIDGETS}/nope`);
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ kind: 'Status', reason: 'NotFound', code: 404, details: { name: 'nope', group: 'test.ipamkit.io', kind: 'widgets' } });
  });

  it('rejects a stale resourceVersion with 409 Conflict and keeps the stored object', async () => {
    const created = await call(server, 'POST', WIDGETS, widget('a'));
    const body = created.body as Record<string, unknown>;
    const first = await call(server, 'PUT', `${WIDGETS}/a`, { ...body, spec: { size: 2 } });
    expect(first.status).toBe(200);
    const stale = await call(server, 'PUT', `${WIDGETS}/a`, { ...body, spec: { size: 3 } });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({ reason: 'Conflict', code: 409 });
    expect(str(stale.body, 'message')).toContain('the object has been modified');
    expect(at((await call(server, 'GET', `${WIDGETS}/a`)).body, 'spec', 'size')).toBe(2);
  });

  it('bumps generation on a spec change only, and keeps the resourceVersion on a no-op write', async () => {
    const created = (await call(server, 'POST', WIDGETS, widget('a'))).body as Record<string, unknown>;
    const same = await call(server, 'PUT', `${WIDGETS}/a`, created);
    expect(str(same.body, 'metadata', 'resourceVersion')).toBe(str(created, 'metadata', 'resourceVersion'));
    const labelled = (await call(server, 'PUT', `${WIDGETS}/a`, { ...created, metadata: { ...(created['metadata'] as object), labels: { x: 'y' } } })).body;
    expect(at(labelled, 'metadata', 'generation')).toBe(1);
    const resized = await call(server, 'PUT', `${WIDGETS}/a`, { ...(labelled as object), spec: { size: 9 } });
    expect(at(resized.body, 'metadata', 'generation')).toBe(2);
  });

  it('refuses an update whose metadata.uid is not the stored one', async () => {
    const created = (await call(server, 'POST', WIDGETS, widget('a'))).body as Record<string, unknown>;
    const meta = created['metadata'] as Record<string, unknown>;
    const reply = await call(server, 'PUT', `${WIDGETS}/a`, { ...created, metadata: { ...meta, uid: '00000000-0000-4000-8000-000000000000' }, spec: { size: 5 } });
    expect(reply.status).toBe(409);
    expect(str(reply.body, 'message')).toContain('UID in precondition');
  });

  it('rejects a wrongly shaped object with 422 Invalid, field causes, and stores nothing', async () => {
    const reply = await call(server, 'POST', WIDGETS, widget('bad', { size: 'big', color: 'blue', counter: 2n ** 64n }));
    expect(reply.status).toBe(422);
    expect(reply.body).toMatchObject({ kind: 'Status', reason: 'Invalid', code: 422, details: { name: 'bad', group: 'test.ipamkit.io', kind: 'Widget' } });
    expect((at(reply.body, 'details', 'causes') as { field: string }[]).map((c) => c.field).sort()).toEqual(['spec.color', 'spec.counter', 'spec.size']);
    expect((await call(server, 'GET', `${WIDGETS}/bad`)).status).toBe(404);
    expect((await call(server, 'POST', WIDGETS, widget('Upper'))).status).toBe(422);
    expect((await call(server, 'POST', WIDGETS, widget('x', { size: 1 }, { 'bad key!': 'v' }))).status).toBe(422);
  });

  it('prunes fields the schema does not know and applies defaults', async () => {
    const reply = await call(server, 'POST', WIDGETS, widget('a', { size: 1, unknown: true, free: { kept: 1 } }));
    expect(at(reply.body, 'spec')).toEqual({ size: 1, free: { kept: 1 }, mode: 'auto' });
    expect(server.readRaw({ group: 'test.ipamkit.io', plural: 'widgets', name: 'a' })?.['spec']).toEqual({ size: 1, free: { kept: 1 }, mode: 'auto' });
  });

  it('deletes only when the uid and resourceVersion preconditions hold', async () => {
    const created = (await call(server, 'POST', WIDGETS, widget('a'))).body;
    const wrongUid = await call(server, 'DELETE', `${WIDGETS}/a`, { preconditions: { uid: 'other' } });
    expect(wrongUid.status).toBe(409);
    expect(str(wrongUid.body, 'message')).toContain('UID in precondition');
    const wrongRv = await call(server, 'DELETE', `${WIDGETS}/a`, { preconditions: { resourceVersion: '1' } });
    expect(wrongRv.status).toBe(409);
    expect(str(wrongRv.body, 'message')).toContain('ResourceVersion in precondition');
    const ok = await call(server, 'DELETE', `${WIDGETS}/a`, { preconditions: { uid: str(created, 'metadata', 'uid'), resourceVersion: str(created, 'metadata', 'resourceVersion') } });
    expect(ok.status).toBe(200);
    expect((await call(server, 'GET', `${WIDGETS}/a`)).status).toBe(404);
  });

  it('holds an object with finalizers until they are removed', async () => {
    const created = (await call(server, 'POST', WIDGETS, { ...widget('a'), metadata: { name: 'a', finalizers: ['x/y'] } })).body as Record<string, unknown>;
    const deleting = await call(server, 'DELETE', `${WIDGETS}/a`);
    expect(str(deleting.body, 'metadata', 'deletionTimestamp')).toMatch(/Z$/);
    const current = (await call(server, 'GET', `${WIDGETS}/a`)).body as Record<string, unknown>;
    expect(current['metadata']).toMatchObject({ finalizers: ['x/y'] });
    await call(server, 'PUT', `${WIDGETS}/a`, { ...current, metadata: { ...(current['metadata'] as object), finalizers: [] } });
    expect((await call(server, 'GET', `${WIDGETS}/a`)).status).toBe(404);
    expect(created['metadata']).toMatchObject({ name: 'a' });
  });

  it('applies merge patches and JSON patches to annotations, with resourceVersion CAS', async () => {
    const created = (await call(server, 'POST', WIDGETS, widget('a'))).body;
    const merged = await call(server, 'PATCH', `${WIDGETS}/a`, { metadata: { annotations: { 'x.io/a': '1', 'x.io/b': '2' } } }, 'application/merge-patch+json');
    expect(at(merged.body, 'metadata', 'annotations')).toEqual({ 'x.io/a': '1', 'x.io/b': '2' });
    const removed = await call(server, 'PATCH', `${WIDGETS}/a`, { metadata: { annotations: { 'x.io/a': null } } }, 'application/merge-patch+json');
    expect(at(removed.body, 'metadata', 'annotations')).toEqual({ 'x.io/b': '2' });
    const json = await call(server, 'PATCH', `${WIDGETS}/a`, [{ op: 'replace', path: '/metadata/annotations/x.io~1b', value: '3' }], 'application/json-patch+json');
    expect(at(json.body, 'metadata', 'annotations')).toEqual({ 'x.io/b': '3' });
    const stale = await call(server, 'PATCH', `${WIDGETS}/a`, { metadata: { resourceVersion: str(created, 'metadata', 'resourceVersion') }, spec: { size: 4 } }, 'application/merge-patch+json');
    expect(stale.status).toBe(409);
    const strategic = await call(server, 'PATCH', `${WIDGETS}/a`, { spec: { size: 4 } }, 'application/strategic-merge-patch+json');
    expect(strategic.status).toBe(415);
  });

  it('writes a Service status only through the status subresource', async () => {
    const svc = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'lb', namespace: 'default' }, spec: { type: 'LoadBalancer' } };
    const created = (await call(server, 'POST', '/api/v1/namespaces/default/services', svc)).body as Record<string, unknown>;
    const ingress = { loadBalancer: { ingress: [{ ip: '10.0.0.1' }] } };
    const ignored = await call(server, 'PUT', '/api/v1/namespaces/default/services/lb', { ...created, status: ingress });
    expect(at(ignored.body, 'status')).toEqual({ loadBalancer: {} });
    const viaStatus = await call(server, 'PUT', '/api/v1/namespaces/default/services/lb/status', { ...created, spec: { type: 'ClusterIP' }, status: ingress });
    expect(at(viaStatus.body, 'status')).toEqual(ingress);
    expect(at(viaStatus.body, 'spec')).toEqual({ type: 'LoadBalancer' });
    const patched = await call(server, 'PATCH', '/api/v1/namespaces/default/services/lb/status', { status: { loadBalancer: { ingress: null } } }, 'application/merge-patch+json');
    expect(at(patched.body, 'status')).toEqual({ loadBalancer: {} });
  });

  it('requires the namespace of a namespaced object to exist', async () => {
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: {} };
    expect((await call(server, 'POST', '/api/v1/namespaces/ghost/pods', pod)).status).toBe(404);
    await call(server, 'POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ghost' } });
    expect((await call(server, 'POST', '/api/v1/namespaces/ghost/pods', pod)).status).toBe(201);
    expect((at((await call(server, 'GET', '/api/v1/pods')).body, 'items') as unknown[]).length).toBe(1);
  });

  it('answers 401 without the bearer token', async () => {
    const res = await fetch(server.url + WIDGETS);
    expect(res.status).toBe(401);
  });

  it('fails the next matching requests as told, then recovers', async () => {
    server.failNext({ status: 503, method: 'GET', times: 2 });
    expect((await call(server, 'GET', WIDGETS)).status).toBe(503);
    expect((await call(server, 'GET', WIDGETS)).status).toBe(503);
    expect((await call(server, 'GET', WIDGETS)).status).toBe(200);
  });

  it('injects raw objects without validation and hands back what it stores', async () => {
    const stored = server.inject({ apiVersion: 'test.ipamkit.io/v1', kind: 'Widget', metadata: { name: 'raw' }, spec: { size: 'not validated' } });
    expect(at((await call(server, 'GET', `${WIDGETS}/raw`)).body, 'spec', 'size')).toBe('not validated');
    expect(server.readRaw({ group: 'test.ipamkit.io', plural: 'widgets', name: 'raw' })).toEqual(stored);
  });
});

describe('startKubeApiServer: lists', () => {
  it.each([
    { selector: 'tier=front', names: ['a', 'b'] },
    { selector: 'tier!=front', names: ['c', 'd'] },
    { selector: 'tier in (front,back)', names: ['a', 'b', 'c'] },
    { selector: 'tier notin (front)', names: ['c', 'd'] },
    { selector: 'tier', names: ['a', 'b', 'c'] },
    { selector: '!tier', names: ['d'] },
    { selector: 'tier=front,app=web', names: ['a'] },
  ])('filters by the label selector $selector', async ({ selector, names }) => {
    await call(server, 'POST', WIDGETS, widget('a', { size: 1 }, { tier: 'front', app: 'web' }));
    await call(server, 'POST', WIDGETS, widget('b', { size: 1 }, { tier: 'front' }));
    await call(server, 'POST', WIDGETS, widget('c', { size: 1 }, { tier: 'back' }));
    await call(server, 'POST', WIDGETS, widget('d'));
    const list = await call(server, 'GET', `${WIDGETS}?labelSelector=${encodeURIComponent(selector)}`);
    expect((at(list.body, 'items') as unknown[]).map((i) => str(i, 'metadata', 'name'))).toEqual(names);
  });

  it('pages with limit and continue over one consistent snapshot', async () => {
    for (const n of ['a', 'b', 'c', 'd']) await call(server, 'POST', WIDGETS, widget(n));
    const first = await call(server, 'GET', `${WIDGETS}?limit=2`);
    expect((at(first.body, 'items') as unknown[]).map((i) => str(i, 'metadata', 'name'))).toEqual(['a', 'b']);
    expect(at(first.body, 'metadata', 'remainingItemCount')).toBe(2);
    await call(server, 'DELETE', `${WIDGETS}/c`);
    await call(server, 'POST', WIDGETS, widget('e'));
    const token = encodeURIComponent(str(first.body, 'metadata', 'continue'));
    const second = await call(server, 'GET', `${WIDGETS}?limit=2&continue=${token}`);
    expect((at(second.body, 'items') as unknown[]).map((i) => str(i, 'metadata', 'name'))).toEqual(['c', 'd']);
    expect(at(second.body, 'metadata', 'continue')).toBeUndefined();
    expect(str(second.body, 'metadata', 'resourceVersion')).toBe(str(first.body, 'metadata', 'resourceVersion'));
  });

  it('answers 410 Expired for a continue token older than the history', async () => {
    for (const n of ['a', 'b', 'c']) await call(server, 'POST', WIDGETS, widget(n));
    const first = await call(server, 'GET', `${WIDGETS}?limit=1`);
    await call(server, 'POST', WIDGETS, widget('d'));
    server.compact();
    const second = await call(server, 'GET', `${WIDGETS}?limit=1&continue=${encodeURIComponent(str(first.body, 'metadata', 'continue'))}`);
    expect(second.status).toBe(410);
    expect(second.body).toMatchObject({ reason: 'Expired', code: 410 });
  });
});

describe('startKubeApiServer: watch', () => {
  const summary = (e: unknown): string => `${str(e, 'type')}:${str(e, 'object', 'metadata', 'name')}`;

  it('replays every change after a resourceVersion, in order', async () => {
    const list = await call(server, 'GET', WIDGETS);
    const a = (await call(server, 'POST', WIDGETS, widget('a'))).body as Record<string, unknown>;
    await call(server, 'PUT', `${WIDGETS}/a`, { ...a, spec: { size: 2 } });
    await call(server, 'DELETE', `${WIDGETS}/a`);
    const events = await watchEvents(server, `${WIDGETS}?watch=1&resourceVersion=${str(list.body, 'metadata', 'resourceVersion')}`, 3);
    expect(events.map(summary)).toEqual(['ADDED:a', 'MODIFIED:a', 'DELETED:a']);
    expect(at(events[1], 'object', 'spec', 'size')).toBe(2);
  });

  it('starts with synthetic ADDED events without a resourceVersion, then streams live changes', async () => {
    await call(server, 'POST', WIDGETS, widget('old'));
    const watch = await openWatch(server, `${WIDGETS}?watch=true`);
    try {
      const first = await watch.next();
      await call(server, 'POST', WIDGETS, widget('new'));
      expect([first, await watch.next()].map(summary)).toEqual(['ADDED:old', 'ADDED:new']);
    } finally {
      watch.close();
    }
  });

  it('ends with an ERROR event carrying 410 when the resourceVersion was compacted', async () => {
    const list = await call(server, 'GET', WIDGETS);
    await call(server, 'POST', WIDGETS, widget('a'));
    server.compact();
    const events = await watchEvents(server, `${WIDGETS}?watch=1&resourceVersion=${str(list.body, 'metadata', 'resourceVersion')}`, 2);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'ERROR', object: { kind: 'Status', code: 410, reason: 'Expired' } });
  });

  it('expires resourceVersions that fell out of the bounded history', async () => {
    const list = await call(server, 'GET', WIDGETS);
    for (let i = 0; i < 60; i += 1) await call(server, 'POST', WIDGETS, widget(`w${i}`));
    const events = await watchEvents(server, `${WIDGETS}?watch=1&resourceVersion=${str(list.body, 'metadata', 'resourceVersion')}`, 1);
    expect(events[0]).toMatchObject({ type: 'ERROR', object: { code: 410 } });
  });

  it('sends bookmarks carrying the current resourceVersion when asked', async () => {
    await call(server, 'POST', WIDGETS, widget('a'));
    const events = await watchEvents(server, `${WIDGETS}?watch=1&resourceVersion=${server.currentResourceVersion}&allowWatchBookmarks=true`, 1);
    expect(events[0]).toMatchObject({ type: 'BOOKMARK', object: { kind: 'Widget', metadata: { resourceVersion: server.currentResourceVersion } } });
  });

  it('turns selector transitions into ADDED and DELETED events', async () => {
    const start = server.currentResourceVersion;
    const a = (await call(server, 'POST', WIDGETS, widget('a', { size: 1 }, { tier: 'back' }))).body as Record<string, unknown>;
    const meta = a['metadata'] as Record<string, unknown>;
    const moved = (await call(server, 'PUT', `${WIDGETS}/a`, { ...a, metadata: { ...meta, labels: { tier: 'front' } } })).body as Record<string, unknown>;
    await call(server, 'PUT', `${WIDGETS}/a`, { ...moved, metadata: { ...(moved['metadata'] as object), labels: {} } });
    const events = await watchEvents(server, `${WIDGETS}?watch=1&resourceVersion=${start}&labelSelector=tier%3Dfront`, 2);
    expect(events.map(summary)).toEqual(['ADDED:a', 'DELETED:a']);
  });
});

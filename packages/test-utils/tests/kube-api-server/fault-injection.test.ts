import { afterEach, describe, expect, it } from 'vitest';
import { FaultInjector, startKubeApiServer, type KubeApiServer } from '../../src/index.js';
import { call, str } from './http-client.js';

const PODS = '/api/v1/namespaces/default/pods';
const pod = (name: string): Record<string, unknown> => ({ apiVersion: 'v1', kind: 'Pod', metadata: { name }, spec: { containers: [{ name: 'c', image: 'i' }] } });

let server: KubeApiServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('FaultInjector', () => {
  it('answers writes with 409 or 500, reads with 500 and watches with 410 or 500, and stores nothing for a faulted write', async () => {
    const faults = new FaultInjector({ rate: 1, seed: 7 });
    const s = await startKubeApiServer({ faults });
    server = s;
    const writes = await Promise.all(Array.from({ length: 30 }, (_, i) => call(s, 'POST', PODS, pod(`p${i}`))));
    const reads = await Promise.all(Array.from({ length: 10 }, () => call(s, 'GET', PODS)));
    const watches = await Promise.all(Array.from({ length: 30 }, () => call(s, 'GET', `${PODS}?watch=true`)));
    expect(new Set(writes.map((w) => w.status))).toEqual(new Set([409, 500]));
    expect(new Set(reads.map((r) => r.status))).toEqual(new Set([500]));
    expect(new Set(watches.map((w) => w.status))).toEqual(new Set([410, 500]));
    expect(str(writes.find((w) => w.status === 409)?.body, 'reason')).toBe('Conflict');
    expect(faults.injected[409] + faults.injected[500] + faults.injected[410]).toBe(70);

    faults.setRate(0);
    const list = await call(s, 'GET', PODS);
    expect(list.status).toBe(200);
    expect((list.body as { items: unknown[] }).items).toEqual([]);
    expect((await call(s, 'POST', PODS, pod('ok'))).status).toBe(201);
  });

  it('rejects a rate outside 0 to 1', () => {
    expect(() => new FaultInjector({ rate: 1.5 })).toThrow('fault rate must be between 0 and 1, got 1.5');
    expect(() => new FaultInjector().setRate(-0.1)).toThrow(RangeError);
  });
});

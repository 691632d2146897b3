// The reads and releases one CNI call sends out together (design/cni.md, "Start-up cost"): the pod
// and its namespace in one round trip, DEL's two releases side by side, and the first failure in
// the order the sequential code had is the one reported.
import { NotFoundError } from '@ipamkit/models';
import type { IpamClient } from '@ipamkit/ipam-core';
import { describe, expect, it } from 'vitest';
import type { Workload } from '../../src/config/workload.js';
import type { KubeObjectMeta, KubeReader } from '../../src/kube/kube-reader.js';
import { CallDeadline } from '../../src/runtime/call-deadline.js';
import type { Invocation } from '../../src/runtime/invocation.js';
import { cmdDel } from '../../src/verbs/cmd-del.js';
import { lookupPodContext } from '../../src/verbs/pod-context.js';

const POD: Workload = { orchestrator: 'k8s', namespace: 'shop', pod: 'web', handleId: 'net.c1', workloadId: 'shop.web' };
const meta = (annotations: Record<string, string>, labels: Record<string, string> = {}): KubeObjectMeta => ({ labels, annotations, ownerReferences: [] }) as unknown as KubeObjectMeta;
const nextTurn = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 5));

interface Recorder {
  readonly events: string[];
  readonly logs: string[];
}

/** The parts of an Invocation the two verbs use; the rest is never touched. */
function invocation(rec: Recorder, parts: { kube?: KubeReader; ipam?: Partial<IpamClient> }): Invocation {
  const log = { debug: (m: string) => rec.logs.push(`debug ${m}`), info: (m: string) => rec.logs.push(`info ${m}`), warn: () => undefined, error: () => undefined };
  const fake = {
    conf: { policy: { type: 'k8s' }, kubernetes: {} },
    log,
    deadline: new CallDeadline(30, 'test'),
    kubeReader: () => parts.kube,
    ipam: () => Promise.resolve(parts.ipam),
    store: () => Promise.reject(new Error('not used')),
    locked: <T>(work: () => Promise<T>) => work(),
  };
  return fake as unknown as Invocation;
}

/** A reader whose answers come a turn later, recording when each read starts and ends. */
function slowReader(rec: Recorder, answers: { pod: () => KubeObjectMeta; namespace: () => KubeObjectMeta }): KubeReader {
  const read = async (name: string, answer: () => KubeObjectMeta): Promise<KubeObjectMeta> => {
    rec.events.push(`${name} asked`);
    await nextTurn();
    rec.events.push(`${name} answered`);
    return answer();
  };
  return {
    getPod: () => read('pod', answers.pod),
    getNamespace: () => read('namespace', answers.namespace),
    getVirtualMachineInstance: () => Promise.reject(new Error('not used')),
    getVirtualMachine: () => Promise.reject(new Error('not used')),
  };
}

describe('lookupPodContext', () => {
  it('asks for the namespace before the pod has answered, and keeps both answers', async () => {
    const rec: Recorder = { events: [], logs: [] };
    const kube = slowReader(rec, { pod: () => meta({ p: '1' }), namespace: () => meta({ n: '2' }, { team: 'blue' }) });
    const ctx = await lookupPodContext(invocation(rec, { kube }), POD);
    expect(rec.events.slice(0, 2)).toEqual(['pod asked', 'namespace asked']);
    expect(ctx).toEqual({ podAnnotations: { p: '1' }, namespaceAnnotations: { n: '2' }, namespace: { name: 'shop', labels: { team: 'blue' } } });
  });

  it.each([
    { case: 'both fail: the pod is reported', pod: 'missing', namespace: 'missing', error: /failed to get pod shop\/web: pod not found/ },
    { case: 'only the namespace fails', pod: 'ok', namespace: 'missing', error: /failed to get namespace shop/ },
    { case: 'the pod read breaks, the namespace is missing', pod: 'broken', namespace: 'missing', error: /^connection reset$/ },
  ])('$case', async (row) => {
    const rec: Recorder = { events: [], logs: [] };
    const answer = (kind: string) => (): KubeObjectMeta => {
      if (kind === 'missing') throw new NotFoundError('not found');
      if (kind === 'broken') throw new Error('connection reset');
      return meta({});
    };
    const kube = slowReader(rec, { pod: answer(row.pod), namespace: answer(row.namespace) });
    await expect(lookupPodContext(invocation(rec, { kube }), POD)).rejects.toThrow(row.error);
  });
});

describe('cmdDel', () => {
  /** An IPAM client whose releases answer a turn later; `fail` maps a handle to its failure. */
  function releasing(rec: Recorder, fail: Record<string, Error> = {}): Partial<IpamClient> {
    return {
      releaseByHandle: async (handle: string) => {
        rec.events.push(`${handle} asked`);
        await nextTurn();
        rec.events.push(`${handle} answered`);
        const err = fail[handle];
        if (err !== undefined) throw err;
      },
    };
  }

  it('releases by handle and by workload ID side by side, logging each in handle order', async () => {
    const rec: Recorder = { events: [], logs: [] };
    await cmdDel(invocation(rec, { ipam: releasing(rec, { 'shop.web': new NotFoundError('no handle') }) }), { ...POD, pod: 'web' });
    expect(rec.events.slice(0, 2)).toEqual(['net.c1 asked', 'shop.web asked']);
    expect(rec.logs).toEqual(['info released the addresses of handle net.c1', 'debug handle shop.web holds no addresses']);
  });

  it('releases once when the workload ID is the handle', async () => {
    const rec: Recorder = { events: [], logs: [] };
    await cmdDel(invocation(rec, { ipam: releasing(rec) }), { ...POD, orchestrator: 'cni', handleId: 'same', workloadId: 'same' });
    expect(rec.events).toEqual(['same asked', 'same answered']);
  });

  it.each([
    { case: 'both fail: the handle is reported', fail: { 'net.c1': new Error('handle broke'), 'shop.web': new Error('workload broke') }, error: 'handle broke' },
    { case: 'only the workload release fails', fail: { 'shop.web': new Error('workload broke') }, error: 'workload broke' },
    { case: 'not found and a failure', fail: { 'net.c1': new NotFoundError('gone'), 'shop.web': new Error('workload broke') }, error: 'workload broke' },
  ])('$case', async (row) => {
    const rec: Recorder = { events: [], logs: [] };
    await expect(cmdDel(invocation(rec, { ipam: releasing(rec, row.fail) }), POD)).rejects.toThrow(row.error);
    // Both releases ran to the end: neither was abandoned half-way by the other's failure.
    expect(rec.events.filter((e) => e.endsWith('answered'))).toHaveLength(2);
  });
});

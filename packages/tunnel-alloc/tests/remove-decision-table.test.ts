import { cniHandleId } from '@ipamkit/models';
import { describe, expect, it } from 'vitest';
import { TunnelStepError } from '../src/index.js';
import { tunnelHandleOf, type TunnelKind } from '../src/tunnel-kinds.js';
import {
  ALL_KINDS,
  COOLDOWN_CONFIG,
  ETCD,
  FAMILY,
  NODE,
  SQLITE,
  decisionOf,
  liveAllocations,
  nodeFor,
  ownAllocation,
  poolFor,
  reconcile,
  storedAddress,
  useBackends,
  withFailingLookup,
  world,
  type Backend,
} from './fixtures.js';

useBackends();

/**
 * Rows of the "remove" decision table (design/calico-callers.md#remove): the kind is disabled because no
 * pool qualifies (its only pool does not select the node), while IPAM can still use that pool.
 */
describe.each([SQLITE, ETCD])('remove decision table on $name', (backend: Backend) => {
  describe.each(ALL_KINDS)('$type', (kind: TunnelKind) => {
    const a7 = FAMILY[kind.version].addr('a', 7);
    const handle = tunnelHandleOf(kind, NODE);
    const noneQualify = [poolFor(kind, 'a', false)];

    it('releases the handle and clears the Node field', async () => {
      const w = await world(backend, { pools: noneQualify, nodes: [nodeFor(kind, a7)] });
      await ownAllocation(w, kind, a7);
      const result = await reconcile(w);
      expect(decisionOf(result, kind)).toEqual({ type: kind.type, enabled: false, outcome: 'released-handle' });
      expect(result.nodeUpdated).toBe(true);
      expect(await storedAddress(w, kind)).toBeUndefined();
      expect(await liveAllocations(w.ds)).toEqual({});
    });

    it('does nothing, and writes nothing, when there is neither a handle nor an address', async () => {
      const w = await world(backend, { pools: noneQualify, nodes: [nodeFor(kind)] });
      const before = await w.ds.nodes.get(NODE);
      const result = await reconcile(w);
      expect(decisionOf(result, kind)).toEqual({ type: kind.type, enabled: false, outcome: 'nothing' });
      expect(result.nodeUpdated).toBe(false);
      expect((await w.ds.nodes.get(NODE)).revision).toBe(before.revision);
    });

    it('clears an address that IPAM does not hold', async () => {
      const w = await world(backend, { pools: noneQualify, nodes: [nodeFor(kind, a7)] });
      const result = await reconcile(w);
      expect(decisionOf(result, kind)).toMatchObject({ outcome: 'nothing' });
      expect(await storedAddress(w, kind)).toBeUndefined();
      expect(await liveAllocations(w.ds)).toEqual({});
    });

    it('clears an address in cooldown without failing', async () => {
      const podHandle = cniHandleId('k8s-pod-network', 'gone');
      const w = await world(backend, { pools: noneQualify, nodes: [nodeFor(kind, a7)], config: COOLDOWN_CONFIG });
      await w.ipam.assignIP({ ip: a7, handleId: podHandle, hostname: NODE });
      await w.ipam.releaseByHandle(podHandle);
      const result = await reconcile(w);
      expect(decisionOf(result, kind)).toMatchObject({ outcome: 'nothing' });
      expect(await storedAddress(w, kind)).toBeUndefined();
    });

    it('releases a pre-handle allocation by address', async () => {
      const w = await world(backend, { pools: noneQualify, nodes: [nodeFor(kind, a7)] });
      await w.ipam.assignIP({ ip: a7, hostname: NODE });
      const result = await reconcile(w);
      expect(decisionOf(result, kind)).toMatchObject({ outcome: 'released-pre-handle' });
      expect(await liveAllocations(w.ds)).toEqual({});
    });

    it('releases by address and handle when the handle object was lost', async () => {
      const w = await world(backend, { pools: noneQualify, nodes: [nodeFor(kind, a7)] });
      await ownAllocation(w, kind, a7);
      await w.ds.handles.delete(await w.ds.handles.get(handle));
      const result = await reconcile(w);
      expect(decisionOf(result, kind)).toMatchObject({ outcome: 'released-lost-handle' });
      expect(await liveAllocations(w.ds)).toEqual({});
    });

    it('leaves an address that now belongs to someone else, clearing only the Node field', async () => {
      const podHandle = cniHandleId('k8s-pod-network', 'c0ffee');
      const w = await world(backend, { pools: noneQualify, nodes: [nodeFor(kind, a7)] });
      await w.ipam.assignIP({ ip: a7, handleId: podHandle, attrs: { namespace: 'default', pod: 'web-0', node: NODE }, hostname: NODE });
      const result = await reconcile(w);
      expect(decisionOf(result, kind)).toMatchObject({ outcome: 'left-foreign' });
      expect(await storedAddress(w, kind)).toBeUndefined();
      expect(await liveAllocations(w.ds)).toEqual({ [a7]: podHandle });
    });

    it('aborts, leaving the Node as it was, when the attribute lookup fails', async () => {
      const w = await world(backend, { pools: noneQualify, nodes: [nodeFor(kind, a7)] });
      const before = await w.ds.nodes.get(NODE);
      const failure = reconcile(w, withFailingLookup(w.ipam));
      await expect(failure).rejects.toBeInstanceOf(TunnelStepError);
      await expect(failure).rejects.toThrow(`failed to get assignment attributes for CIDR '${a7}': etcd is unreachable`);
      expect((await w.ds.nodes.get(NODE)).revision).toBe(before.revision);
    });
  });
});

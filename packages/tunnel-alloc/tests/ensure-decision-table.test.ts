import { blockCidrFor, cidrContains, cniHandleId } from '@ipamkit/models';
import { describe, expect, it } from 'vitest';
import { TunnelAddressParseError, TunnelStepError } from '../src/index.js';
import { tunnelAttributes, tunnelHandleOf, type TunnelKind } from '../src/tunnel-kinds.js';
import {
  ALL_KINDS,
  COOLDOWN_CONFIG,
  ETCD,
  FAMILY,
  NODE,
  OTHER_NODE,
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

/** Rows of the "ensure" decision table (design/calico-callers.md#ensure; design/tunnel-alloc.md "Ensure"). */
describe.each([SQLITE, ETCD])('ensure decision table on $name', (backend: Backend) => {
  describe.each(ALL_KINDS)('$type', (kind: TunnelKind) => {
    const fam = FAMILY[kind.version];
    const a7 = fam.addr('a', 7);
    const a9 = fam.addr('a', 9);
    const handle = tunnelHandleOf(kind, NODE);
    const onlyA = [poolFor(kind, 'a', true)];

    it('assigns an address when the Node records none, first releasing what the handle held', async () => {
      const w = await world(backend, { pools: onlyA, nodes: [nodeFor(kind)] });
      await ownAllocation(w, kind, a9);
      const result = await reconcile(w);
      const address = await storedAddress(w, kind);
      expect(decisionOf(result, kind)).toMatchObject({ enabled: true, outcome: 'assigned-empty', address, pools: [fam.a] });
      expect(address !== undefined && cidrContains(fam.a, address)).toBe(true);
      expect(await w.ipam.ipsByHandle(handle)).toEqual([address]);
      expect(await liveAllocations(w.ds)).toEqual({ [address!]: handle });
      expect((await w.ipam.getAssignmentAttributes(address!)).activeOwnerAttrs).toEqual(tunnelAttributes(kind, NODE));
    });

    it('fails with a parse error when the Node records something that is not a plain IP', async () => {
      const bad = `${a7}/${kind.version === 4 ? 32 : 128}`;
      const w = await world(backend, { pools: onlyA, nodes: [nodeFor(kind, bad)] });
      const before = await w.ds.nodes.get(NODE);
      const failure = reconcile(w);
      await expect(failure).rejects.toBeInstanceOf(TunnelAddressParseError);
      await expect(failure).rejects.toThrow(`failed to parse the CIDR '${bad}'`);
      expect((await w.ds.nodes.get(NODE)).revision).toBe(before.revision);
      expect(await liveAllocations(w.ds)).toEqual({});
    });

    it('keeps its own address while the pool still qualifies, without writing the Node', async () => {
      const w = await world(backend, { pools: onlyA, nodes: [nodeFor(kind, a7)] });
      await ownAllocation(w, kind, a7);
      const before = await w.ds.nodes.get(NODE);
      const result = await reconcile(w);
      expect(decisionOf(result, kind)).toMatchObject({ outcome: 'kept', address: a7 });
      expect(result.nodeUpdated).toBe(false);
      expect((await w.ds.nodes.get(NODE)).revision).toBe(before.revision);
      expect(await liveAllocations(w.ds)).toEqual({ [a7]: handle });
    });

    it('moves its own address out of a pool that no longer qualifies', async () => {
      const pools = [poolFor(kind, 'a', false), poolFor(kind, 'b', true)];
      const w = await world(backend, { pools, nodes: [nodeFor(kind, a7)] });
      await ownAllocation(w, kind, a7);
      const result = await reconcile(w);
      const address = await storedAddress(w, kind);
      expect(decisionOf(result, kind)).toMatchObject({ outcome: 'moved-out-of-pool', pools: [fam.b] });
      expect(address !== undefined && cidrContains(fam.b, address)).toBe(true);
      expect(await liveAllocations(w.ds)).toEqual({ [address!]: handle });
    });

    it('upgrades a pre-handle allocation in place, keeping the address', async () => {
      const w = await world(backend, { pools: onlyA, nodes: [nodeFor(kind, a7)] });
      await w.ipam.assignIP({ ip: a7, hostname: NODE });
      const result = await reconcile(w);
      expect(decisionOf(result, kind)).toMatchObject({ outcome: 'upgraded', address: a7 });
      expect(result.nodeUpdated).toBe(false);
      expect(await liveAllocations(w.ds)).toEqual({ [a7]: handle });
      expect((await w.ipam.getAssignmentAttributes(a7)).activeOwnerAttrs).toEqual(tunnelAttributes(kind, NODE));
    });

    it('assigns afresh when the pre-handle address cannot be re-taken during the upgrade', async () => {
      // With a cooldown, releasing the old address parks it, so re-assigning it reports "already exists".
      const w = await world(backend, { pools: onlyA, nodes: [nodeFor(kind, a7)], config: COOLDOWN_CONFIG });
      await w.ipam.assignIP({ ip: a7, hostname: NODE });
      const result = await reconcile(w);
      const address = await storedAddress(w, kind);
      expect(decisionOf(result, kind)).toMatchObject({ outcome: 'upgrade-lost-race', address });
      expect(address).not.toBe(a7);
      expect(await liveAllocations(w.ds)).toEqual({ [address!]: handle });
    });

    it('leaves an old workload allocation (handle, no attributes) alone and assigns a new address', async () => {
      const podHandle = cniHandleId('k8s-pod-network', 'c0ffee');
      const w = await world(backend, { pools: onlyA, nodes: [nodeFor(kind, a7)] });
      await w.ipam.assignIP({ ip: a7, handleId: podHandle, hostname: NODE });
      const result = await reconcile(w);
      const address = await storedAddress(w, kind);
      expect(decisionOf(result, kind)).toMatchObject({ outcome: 'replaced-foreign', address });
      expect(await liveAllocations(w.ds)).toEqual({ [a7]: podHandle, [address!]: handle });
    });

    it('leaves an address owned by another node alone, assigns anew and frees what its own handle held', async () => {
      const otherHandle = tunnelHandleOf(kind, OTHER_NODE);
      const w = await world(backend, { pools: onlyA, nodes: [nodeFor(kind, a7), { name: OTHER_NODE }] });
      await w.ipam.assignIP({ ip: a7, handleId: otherHandle, attrs: tunnelAttributes(kind, OTHER_NODE), hostname: OTHER_NODE });
      await ownAllocation(w, kind, a9);
      const result = await reconcile(w);
      const address = await storedAddress(w, kind);
      expect(decisionOf(result, kind)).toMatchObject({ outcome: 'replaced-foreign', address });
      // Calico would leave a9 stranded on this node's handle; we keep one address per handle.
      expect(await liveAllocations(w.ds)).toEqual({ [a7]: otherHandle, [address!]: handle });
    });

    it('replaces an address that IPAM does not hold', async () => {
      const w = await world(backend, { pools: onlyA, nodes: [nodeFor(kind, a7)] });
      const result = await reconcile(w);
      const address = await storedAddress(w, kind);
      expect(decisionOf(result, kind)).toMatchObject({ outcome: 'replaced-unallocated', address });
      expect(await liveAllocations(w.ds)).toEqual({ [address!]: handle });
    });

    it('replaces an address in cooldown instead of failing the reconcile (Calico fails here)', async () => {
      const w = await world(backend, { pools: onlyA, nodes: [nodeFor(kind, a7)], config: COOLDOWN_CONFIG });
      await ownAllocation(w, kind, a7);
      await w.ipam.releaseByHandle(handle);
      await expect(w.ipam.getAssignmentAttributes(a7)).rejects.toThrow('is in cooldown');
      const result = await reconcile(w);
      const address = await storedAddress(w, kind);
      expect(decisionOf(result, kind)).toMatchObject({ outcome: 'replaced-cooldown', address });
      expect(address).not.toBe(a7);
      expect(await liveAllocations(w.ds)).toEqual({ [address!]: handle });
    });

    it("fails with Calico's message when the attribute lookup fails, leaving the Node as it was", async () => {
      const w = await world(backend, { pools: onlyA, nodes: [nodeFor(kind, a7)] });
      await ownAllocation(w, kind, a7);
      const before = await w.ds.nodes.get(NODE);
      const failure = reconcile(w, withFailingLookup(w.ipam));
      await expect(failure).rejects.toBeInstanceOf(TunnelStepError);
      await expect(failure).rejects.toThrow(`failed to get assignment attributes for CIDR '${a7}': etcd is unreachable`);
      expect((await w.ds.nodes.get(NODE)).revision).toBe(before.revision);
      expect(await liveAllocations(w.ds)).toEqual({ [a7]: handle });
    });

    it("takes the address from the node's own block rather than another node's", async () => {
      const w = await world(backend, { pools: onlyA, nodes: [nodeFor(kind), { name: OTHER_NODE }] });
      const podOther = cniHandleId('k8s-pod-network', 'other');
      const podOwn = cniHandleId('k8s-pod-network', 'own');
      await w.ipam.autoAssign({ ...(kind.version === 4 ? { num4: 1 } : { num6: 1 }), handleId: podOther, hostname: OTHER_NODE, intendedUse: 'Workload' });
      const own = await w.ipam.autoAssign({ ...(kind.version === 4 ? { num4: 1 } : { num6: 1 }), handleId: podOwn, hostname: NODE, intendedUse: 'Workload' });
      const ownBlock = (kind.version === 4 ? own.ipv4 : own.ipv6)!.ips[0]!;
      await reconcile(w);
      const address = await storedAddress(w, kind);
      const block = blockCidrFor(ownBlock.split('/')[0]!, fam.block);
      expect(address !== undefined && cidrContains(block, address)).toBe(true);
    });
  });
});

import { blockCidrFor, cidrContains, cniHandleId } from '@ipamkit/models';
import { expect, it } from 'vitest';
import { TunnelAddressParseError, TunnelStepError } from '../src/index.js';
import { tunnelAttributes, tunnelHandleOf, type TunnelKind } from '../src/tunnel-kinds.js';
import {
  COOLDOWN_CONFIG,
  FAMILY,
  NODE,
  OTHER_NODE,
  decisionOf,
  describeDecisionTable,
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

// The tunnel allocator's two decision tables (design/calico-callers.md#ensure, design/calico-callers.md#remove).
useBackends();

/** Rows of the "ensure" decision table (design/calico-callers.md#ensure; design/tunnel-alloc.md "Ensure"). */
describeDecisionTable('ensure decision table', (backend: Backend, kind: TunnelKind) => {
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

/**
 * Rows of the "remove" decision table (design/calico-callers.md#remove): the kind is disabled because no
 * pool qualifies (its only pool does not select the node), while IPAM can still use that pool.
 */
describeDecisionTable('remove decision table', (backend: Backend, kind: TunnelKind) => {
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

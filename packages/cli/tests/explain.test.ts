import { createIpamClient } from '@ipamkit/ipam-core';
import { createDatastore } from '@ipamkit/ipam-datastore';
import { BlockLimitError, type Datastore } from '@ipamkit/models';
import { beforeEach, describe, expect, it } from 'vitest';
import { explainIP } from '../src/explain/explain-ip.js';
import { explainNode } from '../src/explain/explain-node.js';
import { explainPod } from '../src/explain/explain-pod.js';
import { BASE_PODS, FakeClock, seedBase } from './fixtures.js';
import { runCli } from './run-cli.js';

describe('ipam explain', () => {
  let ds: Datastore;
  const clock = new FakeClock();

  beforeEach(async () => {
    ds = await createDatastore({ type: 'memory' });
    await seedBase(ds, clock);
  });

  it('explains an affine address: the block is affine to the node that holds it', async () => {
    const e = await explainIP({ datastore: ds, clock }, '10.0.0.2', BASE_PODS);
    expect(e).toMatchObject({ state: 'allocated', pool: 'pool-a', block: '10.0.0.0/26', blockAffinity: 'host:node-a', handle: 'k8s-pod-network.c-web-1' });
    expect(e.sequenceNumber).toBe(1767225600000000001n);
    expect(e.reasons).toEqual([
      "pool pool-a (10.0.0.0/24): nodeSelector \"zone == 'a'\", allowedUses Workload,Tunnel, assignmentMode Automatic, blockSize 26",
      'intended use Workload is allowed by the pool',
      "pool nodeSelector \"zone == 'a'\" selects node node-a",
      'affine: block 10.0.0.0/26 is affine to node node-a, which holds the address',
    ]);
  });

  it('explains a borrowed address: another node took it from a block affine elsewhere', async () => {
    const e = await explainIP({ datastore: ds, clock }, '10.0.0.4', BASE_PODS);
    expect(e.activeOwnerAttrs['node']).toBe('node-b');
    expect(e.reasons.at(-1)).toBe(
      'borrowed: node node-b took this address from block 10.0.0.0/26, affine to node-a (strict affinity is off, so borrowing is allowed)',
    );
  });

  it('explains an annotation-pinned address in a pool that does not select the node', async () => {
    const e = await explainIP({ datastore: ds, clock }, '10.1.0.5', BASE_PODS);
    expect(e.pool).toBe('pool-z');
    expect(e.reasons).toContain('pinned: pod default/pinned asks for this exact address in its cni.projectcalico.org/ipAddrs annotation');
    expect(e.reasons).toContain("pool nodeSelector \"zone == 'b'\" does not select node node-a");
    expect(e.reasons.some((r) => r.startsWith('the pool would not be picked automatically'))).toBe(false);
  });

  it('explains a pool chosen by the pod\'s ipv4pools annotation', async () => {
    const pods = BASE_PODS.map((p) => (p.name === 'pinned' ? { ...p, annotations: { 'cni.projectcalico.org/ipv4pools': '["pool-z"]' } } : p));
    const e = await explainIP({ datastore: ds, clock }, '10.1.0.5', pods);
    expect(e.reasons).toContain("pool chosen by pod default/pinned's cni.projectcalico.org/ipv4pools annotation");
  });

  it('says an address without its pod annotation must have been requested explicitly', async () => {
    const e = await explainIP({ datastore: ds, clock }, '10.1.0.5');
    expect(e.reasons).toContain(
      'the pool would not be picked automatically for this node: the address was requested explicitly (an annotation, a CNI pool list, or AssignIP)',
    );
  });

  it('explains a node whose next IPv4 allocation fails because no pool selects it', async () => {
    const e = await explainNode({ datastore: ds, clock }, 'node-c');
    const v4 = e.families.find((f) => f.version === 4);
    expect(v4).toMatchObject({ wouldSucceed: false, reason: 'no enabled IPv4 pool selects node node-c for workloads', selectingPools: [] });
    expect(v4?.rejectedPools).toEqual([
      { pool: 'pool-a', why: "nodeSelector \"zone == 'a'\" does not select the node" },
      { pool: 'pool-lb', why: 'allowedUses LoadBalancer excludes Workload' },
      { pool: 'pool-z', why: "nodeSelector \"zone == 'b'\" does not select the node" },
    ]);
    expect(e.families.find((f) => f.version === 6)).toMatchObject({ wouldSucceed: true, selectingPools: ['pool-b'] });
  });

  /** Leaves node-a's only pool-a block with no free ordinal (the reserved ones are not free). */
  async function fillNodeABlock(): Promise<void> {
    const free = (await explainNode({ datastore: ds, clock }, 'node-a')).families.find((f) => f.version === 4)?.affineBlocks[0]?.free;
    expect(free).toBe(56);
    const block = await ds.blocks.get('10.0.0.0/26');
    await ds.blocks.update({ ...block, unallocated: block.unallocated.filter((o) => o >= 60 && o <= 63) });
  }

  const explainV4 = async (node: string) => (await explainNode({ datastore: ds, clock }, node)).families.find((f) => f.version === 4);
  const nextPodOf = (node: string) =>
    createIpamClient({ datastore: ds, clock, windowsHost: false }).autoAssign({ num4: 1, hostname: node, handleId: `next-${node}`, intendedUse: 'Workload' });

  it('explains a node that fails because its block cap is reached and strict affinity forbids borrowing', async () => {
    await runCli(['ipam', 'configure', '--strictaffinity', 'true', '--max-blocks-per-host', '1'], ds, clock);
    await fillNodeABlock();
    expect(await explainV4('node-a')).toMatchObject({
      wouldSucceed: false,
      ownedBlocks: 2,
      blockCap: 1,
      reason: 'no free address in affine blocks, block cap reached (2 of 1); AutoAssign does not borrow at the cap',
    });
  });

  // Each case below is checked against AutoAssign itself on the same datastore: explain must say what the core does.
  it('at the block cap says the allocation fails, as AutoAssign does, even where addresses could be borrowed', async () => {
    await ds.ipamConfig.create({ strictAffinity: false, autoAllocateBlocks: true, maxBlocksPerHost: 1, ipCooldownSeconds: 0 });
    await fillNodeABlock();
    const v4 = await explainV4('node-a');
    expect(v4).toMatchObject({ wouldSucceed: false, blockCap: 1, reason: 'no free address in affine blocks, block cap reached (2 of 1); AutoAssign does not borrow at the cap' });
    expect(v4?.borrowableAddresses).toBeGreaterThan(0);
    await expect(nextPodOf('node-a')).rejects.toThrow(BlockLimitError);
  });

  it('with autoAllocateBlocks off says the allocation fails, as AutoAssign does, even where addresses could be borrowed', async () => {
    await ds.ipamConfig.create({ strictAffinity: false, autoAllocateBlocks: false, maxBlocksPerHost: 0, ipCooldownSeconds: 0 });
    await fillNodeABlock();
    const v4 = await explainV4('node-a');
    expect(v4).toMatchObject({ wouldSucceed: false, reason: 'no free address in affine blocks, autoAllocateBlocks is off; AutoAssign does not borrow then' });
    expect(v4?.borrowableAddresses).toBeGreaterThan(0);
    await expect(nextPodOf('node-a')).rejects.toThrow();
  });

  it('says the node would borrow once the selecting pools have no unclaimed block left, and AutoAssign does borrow', async () => {
    await fillNodeABlock();
    // The rest of pool-a's blocks exist, affine to node-b.
    const ipam = createIpamClient({ datastore: ds, clock, windowsHost: false });
    for (const ip of ['10.0.0.130', '10.0.0.200']) await ipam.assignIP({ ip, hostname: 'node-b', handleId: `fill-${ip}`, intendedUse: 'Workload' });
    const v4 = await explainV4('node-a');
    expect(v4).toMatchObject({ wouldSucceed: true, unclaimedBlocks: 0n });
    expect(v4?.reason).toMatch(/^no unclaimed blocks left in the selecting pools \(2 of 20 owned\); would borrow one of \d+ free addresses in other nodes' blocks$/);
    const got = await nextPodOf('node-a');
    const address = got.ipv4?.ips[0];
    expect(address).toBeDefined();
    expect(['10.0.0.0/26']).not.toContain((await explainIP({ datastore: ds, clock }, address?.split('/')[0] ?? '')).block);
  });

  it('explains a node that would claim a new block when its affine blocks are full', async () => {
    const e = await explainNode({ datastore: ds, clock }, 'node-b');
    expect(e.families.find((f) => f.version === 4)).toMatchObject({
      wouldSucceed: true,
      reason: '63 free addresses in 1 affine blocks',
      affineBlocks: [{ cidr: '10.0.0.64/26', free: 63 }],
      unclaimedBlocks: 2n,
    });
  });

  it('explains every address of a pod', async () => {
    const e = await explainPod({ datastore: ds, clock }, 'default/db-1', BASE_PODS);
    expect(e.addresses.map((a) => a.ip)).toEqual(['10.0.0.4']);
    expect(e.reasons).toEqual(['pod phase Running on node node-b']);
  });

  it('explains a free address and a cooling-down one', async () => {
    expect((await explainIP({ datastore: ds, clock }, '10.0.0.9')).reasons.at(-1)).toBe('free in block 10.0.0.0/26');
    await runCli(['ipam', 'configure', '--ip-cooldown-seconds', '60'], ds, clock);
    await runCli(['ipam', 'release', '--ip', '10.0.0.3'], ds, clock);
    const e = await explainIP({ datastore: ds, clock }, '10.0.0.3');
    expect(e.state).toBe('cooldown');
    expect(e.reasons.at(-1)).toBe(
      'released at 2026-01-01T00:00:00Z; in cooldown (60s) until 2026-01-01T00:01:00.000Z, then the next write to the block frees it',
    );
  });

  it('prints the explanation and needs exactly one subject', async () => {
    const run = await runCli(['ipam', 'explain', '--ip', '10.0.0.4'], ds, clock);
    expect(run.code).toBe(0);
    expect(run.stdout.split('\n').slice(0, 4)).toEqual(['IP 10.0.0.4: allocated', 'Pool: pool-a', 'Block: 10.0.0.0/26 (affinity host:node-a)', 'Handle ID: k8s-pod-network.c-db-1']);
    const both = await runCli(['ipam', 'explain', '--ip', '10.0.0.4', '--node', 'node-a'], ds, clock);
    expect(both).toEqual({ code: 2, stdout: '', stderr: 'explain needs exactly one of --ip, --pod or --node\n' });
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addressAt, DatastoreUnavailableError, type Datastore, type IPAMConfig, type IPPool, type Node, type TunnelType } from '@ipamkit/models';
import { createIpamClient, type IpamClient } from '@ipamkit/ipam-core';
import { createDatastore } from '@ipamkit/ipam-datastore';
import { FakeClock, startEtcd, type EtcdHandle } from '@ipamkit/test-utils';
import { afterAll, afterEach, beforeAll, describe } from 'vitest';
import { reconcileTunnelAddresses, type ReconcileResult, type TunnelDecision } from '../src/index.js';
import { TUNNEL_KINDS, tunnelAttributes, tunnelHandleOf, type TunnelKind } from '../src/tunnel-kinds.js';

export interface Backend {
  readonly name: 'memory' | 'sqlite' | 'etcd';
  create(): Promise<Datastore>;
}

let etcd: EtcdHandle | undefined;
let etcdPrefix = 0;
const tempDirs: string[] = [];
const open: Datastore[] = [];

export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tunnel-alloc-'));
  tempDirs.push(dir);
  return dir;
}

/** Closes `ds` after the current test, with the datastores the fixtures opened. */
export function track(ds: Datastore): Datastore {
  open.push(ds);
  return ds;
}

export const SQLITE: Backend = {
  name: 'sqlite',
  create: async () => {
    const ds = await createDatastore({ type: 'sqlite', path: join(tempDir(), 'ipam.db') });
    open.push(ds);
    return ds;
  },
};

export const ETCD: Backend = {
  name: 'etcd',
  create: async () => {
    if (etcd === undefined) throw new Error('etcd not started: call useBackends() at the top of the file');
    etcdPrefix += 1;
    const ds = await createDatastore({ type: 'etcd', endpoints: [etcd.endpoint], prefix: `/ta${process.pid}-${etcdPrefix}` });
    open.push(ds);
    return ds;
  },
};

export const MEMORY: Backend = {
  name: 'memory',
  create: async () => {
    const ds = await createDatastore({ type: 'memory' });
    open.push(ds);
    return ds;
  },
};

/** Starts one real etcd for the file (when asked) and closes every datastore after each test. */
export function useBackends(options: { etcd: boolean } = { etcd: true }): void {
  beforeAll(async () => {
    if (options.etcd) etcd = await startEtcd();
  }, 60_000);
  afterEach(async () => {
    await Promise.all(open.splice(0).map((ds) => ds.close().catch(() => undefined)));
  });
  afterAll(async () => {
    await etcd?.stop();
    etcd = undefined;
    for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  }, 30_000);
}

export function etcdEndpoint(): string {
  if (etcd === undefined) throw new Error('etcd not started');
  return etcd.endpoint;
}

export const NODE = 'node-1';
export const OTHER_NODE = 'node-2';
/** A selector no node in these tests matches: the pool then does not qualify, yet stays usable by IPAM. */
export const NOWHERE = "zone == 'nowhere'";

export const COOLDOWN_CONFIG: IPAMConfig = { strictAffinity: false, autoAllocateBlocks: true, maxBlocksPerHost: 0, ipCooldownSeconds: 600 };

/** Pool A and pool B of a kind's family; `n` picks an address inside. */
export const FAMILY = {
  4: { a: '10.10.0.0/24', b: '10.20.0.0/24', addr: (pool: 'a' | 'b', n: number) => `10.${pool === 'a' ? 10 : 20}.0.${n}`, block: 26 },
  6: { a: 'fd00:a::/120', b: 'fd00:b::/120', addr: (pool: 'a' | 'b', n: number) => `fd00:${pool}::${n.toString(16)}`, block: 122 },
} as const;

/**
 * Pools that make exactly `kind` relevant: IPIP/VXLAN pools carry the kind's encapsulation (so no
 * other encapsulated type is enabled), WireGuard pools none (the Node's public key enables it).
 */
export function poolFor(kind: TunnelKind, pool: 'a' | 'b', qualifies: boolean): IPPool {
  const family = FAMILY[kind.version];
  return {
    name: `pool-${pool}-v${kind.version}`,
    cidr: family[pool],
    blockSize: family.block,
    ...(kind.encapsulation === undefined ? {} : { [kind.encapsulation]: 'Always' as const }),
    ...(qualifies ? {} : { nodeSelector: NOWHERE }),
  };
}

/** The Node for `kind`: WireGuard kinds get the public key that makes Calico enable them. */
export function nodeFor(kind: TunnelKind, tunnelAddress?: string): Node {
  const node: Node = { name: NODE, labels: { zone: 'a' } };
  if (kind.type === 'wireguard') node.wireguardPublicKey = 'pubkey-v4=';
  if (kind.type === 'wireguard-v6') node.wireguardPublicKeyV6 = 'pubkey-v6=';
  if (tunnelAddress !== undefined) node.tunnelAddresses = { [kind.nodeField]: tunnelAddress };
  return node;
}

export interface World {
  readonly ds: Datastore;
  readonly ipam: IpamClient;
  readonly clock: FakeClock;
}

export async function world(backend: Backend, seed: { pools: IPPool[]; nodes: Node[]; config?: IPAMConfig }): Promise<World> {
  const ds = await backend.create();
  for (const pool of seed.pools) await ds.ipPools.create(pool);
  for (const node of seed.nodes) await ds.nodes.create(node);
  if (seed.config !== undefined) await ds.ipamConfig.create(seed.config);
  const clock = new FakeClock(Date.UTC(2026, 10, 29, 9, 0, 0));
  return { ds, clock, ipam: createIpamClient({ datastore: ds, clock, windowsHost: false }) };
}

export const ALL_KINDS: readonly TunnelKind[] = (['ipip', 'vxlan', 'vxlan-v6', 'wireguard', 'wireguard-v6'] as TunnelType[]).map(
  (t) => TUNNEL_KINDS[t],
);

/** The frame of a decision table: its rows run for every tunnel kind on SQLite and on etcd (after `useBackends()`). */
export function describeDecisionTable(title: string, rows: (backend: Backend, kind: TunnelKind) => void): void {
  describe.each([SQLITE, ETCD])(`${title} on $name`, (backend: Backend) => {
    describe.each(ALL_KINDS)('$type', (kind: TunnelKind) => {
      rows(backend, kind);
    });
  });
}

/** Every live allocation as `ip → handle` (cooldown excluded), for whole-store assertions. */
export async function liveAllocations(ds: Datastore): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const block of await ds.blocks.list()) {
    block.allocations.forEach((index, ordinal) => {
      if (index === null) return;
      const attribute = block.attributes[index];
      if (attribute === undefined || attribute.releasedAt !== undefined) return;
      out[addressAt(block.cidr, ordinal)] = attribute.handleId ?? '(none)';
    });
  }
  return out;
}

/** Allocates `ip` as this node's tunnel address of `kind` (handle and attributes as the allocator writes them). */
export async function ownAllocation(w: World, kind: TunnelKind, ip: string): Promise<void> {
  await w.ipam.assignIP({ ip, handleId: tunnelHandleOf(kind, NODE), attrs: tunnelAttributes(kind, NODE), hostname: NODE });
}

/** The Node's address for `kind` as stored. */
export async function storedAddress(w: World, kind: TunnelKind): Promise<string | undefined> {
  return (await w.ds.nodes.get(NODE)).tunnelAddresses?.[kind.nodeField];
}

/** An IPAM client whose attribute lookups fail with a transient datastore error. */
export function withFailingLookup(ipam: IpamClient): IpamClient {
  return { ...ipam, getAssignmentAttributes: () => Promise.reject(new DatastoreUnavailableError('etcd is unreachable')) };
}

export function reconcile(w: World, ipam: IpamClient = w.ipam): Promise<ReconcileResult> {
  return reconcileTunnelAddresses({ datastore: w.ds, ipam, nodeName: NODE });
}

export function decisionOf(result: ReconcileResult, kind: TunnelKind): TunnelDecision {
  const decision = result.decisions.find((d) => d.type === kind.type);
  if (decision === undefined) throw new Error(`no decision for ${kind.type}`);
  return decision;
}

/** Pools that enable all five tunnel types on a node that publishes both WireGuard keys. */
export const FIVE_TYPE_POOLS: IPPool[] = [
  { name: 'v4-ipip', cidr: '10.10.0.0/24', blockSize: 26, ipipMode: 'Always' },
  { name: 'v4-vxlan', cidr: '10.20.0.0/24', blockSize: 26, vxlanMode: 'Always' },
  { name: 'v6-vxlan', cidr: 'fd00:b::/120', blockSize: 122, vxlanMode: 'Always' },
];

export const WIREGUARD_NODE: Node = {
  name: NODE,
  labels: { zone: 'a' },
  wireguardPublicKey: 'pubkey-v4=',
  wireguardPublicKeyV6: 'pubkey-v6=',
};

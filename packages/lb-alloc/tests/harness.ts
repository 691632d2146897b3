import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDatastore } from '@ipamkit/ipam-datastore';
import { createIpamClient, type IpamClient } from '@ipamkit/ipam-core';
import { addressAt, type Datastore, type IPPool } from '@ipamkit/models';
import { afterEach } from 'vitest';
import { MemoryLbClusterView } from '../src/cluster-view/memory-lb-cluster-view.js';
import { LbController, type LbControllerOptions } from '../src/controller/lb-controller.js';

export const LB_POOL_V4: IPPool = { name: 'lb-v4', cidr: '10.96.100.0/24', blockSize: 28, allowedUses: ['LoadBalancer'] };
export const LB_POOL_V6: IPPool = { name: 'lb-v6', cidr: 'fd00:10:96::/120', blockSize: 124, allowedUses: ['LoadBalancer'] };
export const MANUAL_POOL_V4: IPPool = { name: 'lb-manual', cidr: '10.96.200.0/24', blockSize: 28, allowedUses: ['LoadBalancer'], assignmentMode: 'Manual' };
export const WORKLOAD_POOL_V4: IPPool = { name: 'pods', cidr: '10.244.0.0/24', blockSize: 26, allowedUses: ['Workload'] };

/** How a scenario suite opens a fresh, empty datastore (memory, sqlite, etcd). */
export type DatastoreFactory = () => Promise<Datastore>;

export interface LbWorld {
  readonly ds: Datastore;
  readonly ipam: IpamClient;
  readonly view: MemoryLbClusterView;
  readonly controller: LbController;
  /** Waits until the controller has handled every event so far. */
  settle(): Promise<void>;
}

const open: { controller: LbController; ds?: Datastore }[] = [];
const dirs: string[] = [];

/**
 * Registers the per-test teardown: every controller a test started is checked with
 * assertConsistentState (the tracker's three maps agree with each other and with the datastore),
 * then stopped; datastores and temp dirs are closed and removed.
 */
export function useLbWorlds(): void {
  afterEach(async () => {
    const worlds = open.splice(0);
    try {
      for (const w of worlds) await w.controller.assertConsistentState();
    } finally {
      for (const w of worlds) await w.controller.stop();
      for (const w of worlds) await w.ds?.close();
      for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
    }
  });
}

export async function sqliteDatastore(): Promise<Datastore> {
  const dir = mkdtempSync(join(tmpdir(), 'ipamkit-lb-'));
  dirs.push(dir);
  return createDatastore({ type: 'sqlite', path: join(dir, 'ipam.db') });
}

export async function seedPools(ds: Datastore, pools: readonly IPPool[]): Promise<void> {
  for (const p of pools) await ds.ipPools.create(p);
}

/** Starts a controller (no timer: tests drive full syncs) over `ds` and `view`. */
export async function startController(
  ds: Datastore,
  view: MemoryLbClusterView,
  options: Partial<LbControllerOptions> & { ownsDatastore?: boolean } = {},
): Promise<LbController> {
  const controller = new LbController({ datastore: ds, view, fullSyncIntervalMs: 0, ...options });
  open.push(options.ownsDatastore === true ? { controller, ds } : { controller });
  await controller.start();
  return controller;
}

export async function lbWorld(ds: Datastore, options: { pools?: readonly IPPool[]; controller?: Partial<LbControllerOptions> } = {}): Promise<LbWorld> {
  await seedPools(ds, options.pools ?? [LB_POOL_V4]);
  const view = new MemoryLbClusterView();
  const controller = await startController(ds, view, { ...options.controller, ownsDatastore: true });
  return { ds, ipam: createIpamClient({ datastore: ds }), view, controller, settle: () => controller.whenIdle() };
}

export interface StoredAllocation {
  readonly ip: string;
  readonly handle: string | undefined;
  readonly attrs: Record<string, string>;
  readonly affinity: string;
}

/** Every allocated address in the datastore, sorted by address text. */
export async function storedAllocations(ds: Datastore): Promise<StoredAllocation[]> {
  const out: StoredAllocation[] = [];
  for (const block of await ds.blocks.list()) {
    block.allocations.forEach((attrIndex, ordinal) => {
      if (attrIndex === null) return;
      const attr = block.attributes[attrIndex];
      out.push({
        ip: addressAt(block.cidr, ordinal),
        handle: attr?.handleId,
        attrs: { ...(attr?.activeOwnerAttrs ?? {}) },
        affinity: block.affinity === undefined ? '' : `${block.affinity.type}:${block.affinity.host}`,
      });
    });
  }
  return out.sort((a, b) => (a.ip < b.ip ? -1 : a.ip > b.ip ? 1 : 0));
}

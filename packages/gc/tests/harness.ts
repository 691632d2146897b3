import type { Datastore, IPAMConfig, IPPool } from '@ipamkit/models';
import { addressAt, cniHandleId } from '@ipamkit/models';
import { createDatastore } from '@ipamkit/ipam-datastore';
import { type IpamClient, createIpamClient } from '@ipamkit/ipam-core';
import { FakeClock } from '@ipamkit/test-utils';
import { afterEach } from 'vitest';
import { GcController, type GcControllerOptions } from '../src/controller/gc-controller.js';
import { MemoryClusterView } from '../src/cluster-view/memory-cluster-view.js';

export const SECOND = 1000;
export const HOUR = 3600 * SECOND;

export interface GcWorld {
  readonly ds: Datastore;
  readonly ipam: IpamClient;
  readonly clock: FakeClock;
  readonly view: MemoryClusterView;
  readonly gc: GcController;
  /** Re-list the datastore and run a pass. */
  pass(options?: { full?: boolean }): ReturnType<GcController['syncNow']>;
}

interface OpenWorld {
  readonly world: GcWorld;
  readonly fixtureInvariants: boolean;
}
const open: OpenWorld[] = [];

/**
 * Registers the per-test teardown: every world a test made is checked with assertConsistentState
 * (design/calico-callers.md#gc-invariants; design rubric 2), then stopped and closed.
 */
export function useGcWorlds(): void {
  afterEach(async () => {
    const worlds = open.splice(0);
    try {
      for (const { world, fixtureInvariants } of worlds) await world.gc.assertConsistentState({ fixtureInvariants });
    } finally {
      for (const { world } of worlds) {
        await world.gc.stop();
        await world.ds.close();
      }
    }
  });
}

export interface WorldSeed {
  readonly pools?: IPPool[];
  readonly nodes?: string[];
  readonly config?: IPAMConfig;
  readonly datastore?: Datastore;
  /** Check C8 at teardown (true unless a test deliberately leaves borrowed-only nodes). */
  readonly fixtureInvariants?: boolean;
  readonly gc?: Partial<GcControllerOptions>;
}

/** Memory datastore (unless given), a fake clock, an in-memory cluster and a manual-mode collector. */
export async function gcWorld(seed: WorldSeed = {}): Promise<GcWorld> {
  const ds = seed.datastore ?? (await createDatastore({ type: 'memory' }));
  for (const p of seed.pools ?? [{ name: 'default-ipv4', cidr: '10.0.0.0/24', blockSize: 26 }]) await ds.ipPools.create(p);
  if (seed.config !== undefined) await ds.ipamConfig.create(seed.config);
  const clock = new FakeClock();
  const view = new MemoryClusterView();
  for (const n of seed.nodes ?? ['node-a']) view.upsertNode(n);
  const ipam = createIpamClient({ datastore: ds, clock, windowsHost: false });
  const gc = new GcController({ datastore: ds, view, ipam, clock, leakGracePeriodMs: SECOND, background: false, ...seed.gc });
  await gc.start();
  const world: GcWorld = {
    ds,
    ipam,
    clock,
    view,
    gc,
    async pass(options = {}) {
      await gc.refresh();
      return gc.syncNow(options);
    },
  };
  open.push({ world, fixtureInvariants: seed.fixtureInvariants ?? true });
  return world;
}

let containers = 0;

/** Allocates `ip` to a pod on `node` the way the CNI plugin records it; returns its handle. */
export async function allocatePodIP(
  w: GcWorld,
  args: { ip: string; node: string; namespace?: string; pod?: string; handle?: string; extraAttrs?: Record<string, string> },
): Promise<string> {
  containers++;
  const handle = args.handle ?? cniHandleId('k8s-pod-network', `container-${containers}`);
  const attrs: Record<string, string> = { node: args.node, ...args.extraAttrs };
  if (args.namespace !== undefined) attrs['namespace'] = args.namespace;
  if (args.pod !== undefined) attrs['pod'] = args.pod;
  await w.ipam.assignIP({ ip: args.ip, hostname: args.node, handleId: handle, attrs, intendedUse: 'Workload' });
  return handle;
}

/** The addresses currently allocated in the datastore (cooling ones excluded). */
export async function allocatedIPs(ds: Datastore): Promise<string[]> {
  const out: string[] = [];
  for (const block of await ds.blocks.list()) {
    block.allocations.forEach((index, ordinal) => {
      if (index === null) return;
      if (block.attributes[index]?.releasedAt !== undefined) return;
      out.push(addressAt(block.cidr, ordinal));
    });
  }
  return out.sort();
}

export async function affinityHosts(ds: Datastore): Promise<string[]> {
  return (await ds.affinities.list()).map((a) => `${a.host}:${a.cidr}`).sort();
}

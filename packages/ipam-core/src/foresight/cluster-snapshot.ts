import {
  DEFAULT_IPAM_CONFIG,
  NotFoundError,
  type AllocationBlock,
  type BlockAffinity,
  type Datastore,
  type IPAMConfig,
  type IPPool,
  type IPReservation,
  type Node,
} from '@ipamkit/models';

/**
 * Everything the planner reads (design/ipam-core.md, "Foresight"): one listing of the IPAM state.
 * The planner never writes; a what-if is a changed copy of a snapshot.
 */
export interface ClusterSnapshot {
  readonly pools: readonly IPPool[];
  readonly blocks: readonly AllocationBlock[];
  readonly affinities: readonly BlockAffinity[];
  readonly reservations: readonly IPReservation[];
  readonly nodes: readonly Node[];
  readonly config: IPAMConfig;
  /** The moment the snapshot stands for: cooldowns and reclaim ages are judged against it. */
  readonly now: Date;
}

/** Reads a snapshot in one wave of listings; the config defaults when none is stored. */
export async function loadClusterSnapshot(datastore: Datastore, now: Date): Promise<ClusterSnapshot> {
  const [pools, blocks, affinities, reservations, nodes, config] = await Promise.all([
    datastore.ipPools.list(),
    datastore.blocks.list(),
    datastore.affinities.list(),
    datastore.ipReservations.list(),
    datastore.nodes.list(),
    datastore.ipamConfig.get().then(
      (stored): IPAMConfig => ({
        strictAffinity: stored.strictAffinity,
        autoAllocateBlocks: stored.autoAllocateBlocks,
        maxBlocksPerHost: stored.maxBlocksPerHost,
        ipCooldownSeconds: stored.ipCooldownSeconds,
      }),
      (err: unknown): IPAMConfig => {
        if (err instanceof NotFoundError) return { ...DEFAULT_IPAM_CONFIG };
        throw err;
      },
    ),
  ]);
  return {
    pools,
    blocks: blocks.filter((b) => !b.deleted),
    affinities: affinities.filter((a) => !a.deleted),
    reservations,
    nodes,
    config,
    now,
  };
}

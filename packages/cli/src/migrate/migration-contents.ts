import type { AllocationBlock, BlockAffinity, DatastoreKind, IPAMConfig, IPAMHandle, IPPool, IPReservation, Node } from '@ipamkit/models';

/** Everything `datastore migrate` moves, as models (design/cli.md "datastore migrate"). */
export interface MigrationContents {
  readonly ipPools: readonly IPPool[];
  readonly ipReservations: readonly IPReservation[];
  readonly nodes: readonly Node[];
  readonly affinities: readonly BlockAffinity[];
  readonly blocks: readonly AllocationBlock[];
  readonly handles: readonly IPAMHandle[];
  readonly config?: IPAMConfig;
}

/** An export: the contents (already renamed), where they came from and the node renames applied. */
export interface Migration {
  readonly source: DatastoreKind;
  /** Old node name → new node name; empty when nodes kept their names. */
  readonly nodeRenames: Readonly<Record<string, string>>;
  readonly contents: MigrationContents;
}

/** How many objects of each kind; `ipamResources` counts affinities, blocks, handles and config as calicoctl does. */
export interface MigrationCounts {
  readonly ipPools: number;
  readonly ipReservations: number;
  readonly nodes: number;
  readonly blockAffinities: number;
  readonly blocks: number;
  readonly handles: number;
  readonly config: number;
  readonly ipamResources: number;
}

export function countContents(contents: MigrationContents): MigrationCounts {
  const config = contents.config === undefined ? 0 : 1;
  return {
    ipPools: contents.ipPools.length,
    ipReservations: contents.ipReservations.length,
    nodes: contents.nodes.length,
    blockAffinities: contents.affinities.length,
    blocks: contents.blocks.length,
    handles: contents.handles.length,
    config,
    ipamResources: contents.affinities.length + contents.blocks.length + contents.handles.length + config,
  };
}

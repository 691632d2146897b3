import { rename, writeFile } from 'node:fs/promises';
import { orUndefined, type Datastore, type IPAMConfig, type Versioned } from '@ipamkit/models';
import type { CommandContext } from '../cli-io.js';
import { prettyJson } from '../format/pretty-json.js';
import { countContents, type Migration, type MigrationContents, type MigrationCounts } from './migration-contents.js';
import { encodeMigrationDocument } from './migration-document.js';
import { kubernetesNodeRenames } from './node-renames.js';
import { renameContents } from './rename-contents.js';

export interface ExportOptions {
  /** Rename nodes to their Kubernetes names (design/calico-callers.md#node-renames); every node needs a k8s orchRef. */
  readonly k8sNodeNames: boolean;
  /** Where to write the document; absent: the result carries it for stdout. */
  readonly file?: string;
}

export interface ExportResult {
  readonly source: Datastore['kind'];
  readonly file?: string;
  readonly counts: MigrationCounts;
  readonly nodeRenames: Readonly<Record<string, string>>;
  /** The export document as a JSON value. */
  readonly document: Record<string, unknown>;
}

function stripped<T extends object>(items: readonly Versioned<T>[]): T[] {
  return items.map(({ revision: _revision, uid: _uid, ...rest }) => rest as unknown as T);
}

async function readConfig(ds: Datastore): Promise<IPAMConfig | undefined> {
  const stored = await orUndefined(ds.ipamConfig.get());
  return stored === undefined ? undefined : stripped<IPAMConfig>([stored])[0];
}

/** Reads everything `datastore migrate` moves, without revisions. */
export async function readMigrationContents(ds: Datastore): Promise<MigrationContents> {
  const config = await readConfig(ds);
  return {
    ipPools: stripped(await ds.ipPools.list()),
    ipReservations: stripped(await ds.ipReservations.list()),
    nodes: stripped(await ds.nodes.list()),
    affinities: stripped(await ds.affinities.list()),
    blocks: stripped(await ds.blocks.list()),
    handles: stripped(await ds.handles.list()),
    ...(config === undefined ? {} : { config }),
  };
}

/**
 * `datastore migrate export`: reads the source, renames nodes when asked (design/calico-callers.md#node-renames and design/calico-callers.md#ipam-rewriting) and builds the
 * document. The file is written (through a temporary name) only once everything succeeded.
 */
export async function migrateExport(ctx: CommandContext, options: ExportOptions): Promise<ExportResult> {
  const read = await readMigrationContents(ctx.datastore);
  const renames = options.k8sNodeNames ? kubernetesNodeRenames(read.nodes) : new Map<string, string>();
  const changed = new Map([...renames].filter(([from, to]) => from !== to));
  const contents = renameContents(read, changed);
  const migration: Migration = { source: ctx.datastore.kind, nodeRenames: Object.fromEntries(changed), contents };
  const document = encodeMigrationDocument(migration);
  if (options.file !== undefined) {
    const temporary = `${options.file}.${String(process.pid)}.tmp`;
    await writeFile(temporary, prettyJson(document));
    await rename(temporary, options.file);
  }
  return {
    source: migration.source,
    ...(options.file === undefined ? {} : { file: options.file }),
    counts: countContents(contents),
    nodeRenames: migration.nodeRenames,
    document,
  };
}

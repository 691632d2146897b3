import { readFile } from 'node:fs/promises';
import { kubernetesHandleName, orUndefined, type Datastore } from '@ipamkit/models';
import type { CommandContext } from '../cli-io.js';
import { InputFileError, messageOf, MigrationImportError, MigrationRejectedError } from '../errors.js';
import { countContents, type MigrationContents, type MigrationCounts } from './migration-contents.js';
import { decodeMigrationDocument } from './migration-document.js';

export interface ImportOptions {
  readonly file: string;
  /** Validate the file and the target, write nothing. */
  readonly dryRun: boolean;
}

export interface ImportResult {
  readonly file: string;
  readonly target: Datastore['kind'];
  readonly dryRun: boolean;
  /** What was (or, with dryRun, would be) written. */
  readonly counts: MigrationCounts;
  /** Nodes in the file not written because the target takes nodes from Kubernetes. */
  readonly nodesSkipped: number;
}

/**
 * Handle IDs that differ only in case are two handles in etcd or SQLite but one object name in
 * Kubernetes (the name is the lower-cased ID): refuse them before writing anything.
 */
export function kubernetesHandleCollisions(handleIds: readonly string[]): string[][] {
  const byName = new Map<string, string[]>();
  for (const id of handleIds) byName.set(kubernetesHandleName(id), [...(byName.get(kubernetesHandleName(id)) ?? []), id]);
  return [...byName.values()].filter((ids) => ids.length > 1).map((ids) => [...ids].sort());
}

/** design/calico-callers.md#import: the target must hold no Calico resource and no IPAM object. */
async function requireEmptyTarget(ds: Datastore): Promise<void> {
  const found: string[] = [];
  if ((await ds.ipPools.list()).length > 0) found.push('IP pools');
  if ((await ds.ipReservations.list()).length > 0) found.push('IP reservations');
  if (ds.kind !== 'kubernetes' && (await ds.nodes.list()).length > 0) found.push('nodes');
  const ipam =
    (await ds.affinities.list()).length > 0 || (await ds.blocks.list()).length > 0 || (await ds.handles.list()).length > 0 || (await orUndefined(ds.ipamConfig.get())) !== undefined;
  if (ipam) found.push('IPAM resources');
  if (found.length === 0) return;
  const hint = ds.kind === 'kubernetes' ? 'Clear out all Calico resources by deleting all Calico CRDs' : 'Import into an empty datastore';
  throw new MigrationRejectedError(`datastore already has Calico resources: found existing ${found.join(', ')}. ${hint}`);
}

/** One create and how to undo it. */
type Step = () => Promise<{ what: string; undo: () => Promise<void> }>;

function steps(ds: Datastore, c: MigrationContents, withNodes: boolean): Step[] {
  return [
    ...c.ipPools.map((p): Step => async () => {
      const made = await ds.ipPools.create(p);
      return { what: `IP pool ${p.name}`, undo: () => ds.ipPools.delete(made.name, made.revision) };
    }),
    ...c.ipReservations.map((r): Step => async () => {
      const made = await ds.ipReservations.create(r);
      return { what: `IP reservation ${r.name}`, undo: () => ds.ipReservations.delete(made.name, made.revision) };
    }),
    ...(withNodes ? c.nodes : []).map((n): Step => async () => {
      const made = await ds.nodes.create(n);
      return { what: `node ${n.name}`, undo: () => ds.nodes.delete(made.name, made.revision) };
    }),
    // IPAM in calicoctl's order: affinities, blocks, handles, config.
    ...c.affinities.map((a): Step => async () => {
      const made = await ds.affinities.create(a);
      return { what: `block affinity ${a.type}:${a.host} ${a.cidr}`, undo: () => ds.affinities.delete(made) };
    }),
    ...c.blocks.map((b): Step => async () => {
      const made = await ds.blocks.create(b);
      return { what: `block ${b.cidr}`, undo: () => ds.blocks.delete(made) };
    }),
    ...c.handles.map((h): Step => async () => {
      const made = await ds.handles.create(h);
      return { what: `IPAM handle ${h.handleId}`, undo: () => ds.handles.delete(made) };
    }),
    ...(c.config === undefined
      ? []
      : [
          async (): ReturnType<Step> => {
            const made = await ds.ipamConfig.create(c.config as NonNullable<typeof c.config>);
            return { what: 'IPAM config', undo: () => ds.ipamConfig.delete(made.revision) };
          },
        ]),
  ];
}

/** Runs the creates in order; on a failure deletes what was created, newest first, and throws. */
async function applyAll(all: readonly Step[]): Promise<void> {
  const done: { what: string; undo: () => Promise<void> }[] = [];
  for (const [i, step] of all.entries()) {
    try {
      done.push(await step());
    } catch (err) {
      const left: string[] = [];
      for (const made of done.reverse()) {
        try {
          await made.undo();
        } catch {
          left.push(made.what);
        }
      }
      const head = `import failed on object ${String(i + 1)} of ${String(all.length)}: ${messageOf(err)}`;
      if (left.length === 0) throw new MigrationImportError(`${head}; the ${String(done.length)} object(s) created before it were deleted`, true, { cause: err });
      throw new MigrationImportError(`${head}; could not delete again: ${left.join(', ')}`, false, { cause: err });
    }
  }
}

/**
 * `datastore migrate import` (design/calico-callers.md#import): the whole file is decoded and checked, and the
 * target found empty, before the first write; a write that still fails is undone.
 */
export async function migrateImport(ctx: CommandContext, options: ImportOptions): Promise<ImportResult> {
  let text: string;
  try {
    text = await readFile(options.file, 'utf8');
  } catch (err) {
    throw new InputFileError(options.file, `cannot read: ${messageOf(err)}`, { cause: err });
  }
  const { contents } = decodeMigrationDocument(text, options.file);
  const ds = ctx.datastore;
  const counts = countContents(contents);
  if (counts.ipamResources === 0) throw new InputFileError(options.file, 'no IPAM resources specified in file');
  if (ds.kind === 'kubernetes') {
    const collisions = kubernetesHandleCollisions(contents.handles.map((h) => h.handleId));
    if (collisions.length > 0) {
      const list = collisions.map((ids) => ids.join(' and ')).join('; ');
      throw new MigrationRejectedError(`handles whose IDs differ only in case cannot be stored in Kubernetes: ${list}`);
    }
  }
  await requireEmptyTarget(ds);
  const withNodes = ds.kind !== 'kubernetes';
  const written = withNodes ? counts : { ...counts, nodes: 0 };
  const result: ImportResult = { file: options.file, target: ds.kind, dryRun: options.dryRun, counts: written, nodesSkipped: counts.nodes - written.nodes };
  if (!options.dryRun) await applyAll(steps(ds, contents, withNodes));
  return result;
}

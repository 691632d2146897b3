import { renderedTask, type SetTask } from '../cli-io.js';
import { leafCommand, type CommandSpec } from '../command-line/command-spec.js';
import { CliUsageError } from '../errors.js';
import type { DatastoreAccess } from './datastore-access.js';
import type { ResourceAction } from './kind-ops.js';
import { deleteByName, manageResources, renderManaged } from './manage-resources.js';
import { readDocuments } from './read-documents.js';
import { renderGet, type GetOutput } from './render-resources.js';
import { allKindOps, kindOfArgument } from './resource-kinds.js';


const GET_OUTPUTS: readonly GetOutput[] = ['table', 'wide', 'yaml', 'json'];

function getOutput(value: string | undefined): GetOutput {
  const found = GET_OUTPUTS.find((o) => o === (value ?? 'table'));
  if (found === undefined) throw new CliUsageError(`unknown output format ${JSON.stringify(value)}: use yaml, json or wide`);
  return found;
}

function requireFile(file: string | undefined, command: string): string {
  if (file === undefined || file.trim() === '') throw new CliUsageError(`${command} needs -f <file> (or -f - for standard input)`);
  return file;
}

/** Which datastore opening each command needs (design/cli.md "Opening the datastore"). */
const ACCESS: Readonly<Record<ResourceAction, DatastoreAccess>> = { create: 'may-create', apply: 'may-create', replace: 'must-exist', delete: 'must-exist' };

const DESCRIPTIONS: Readonly<Record<Exclude<ResourceAction, 'delete'>, string>> = {
  create: 'create the resources in a file (fails if one exists)',
  apply: 'create or update the resources in a file',
  replace: 'update the resources in a file (fails if one is missing; honours metadata.resourceVersion)',
};

/**
 * `get|create|apply|replace|delete` for IPPool, IPReservation, IPAMConfiguration and Node
 * (design/cli.md "Resources"), reading and writing calicoctl's projectcalico.org/v3 YAML or JSON.
 */
export function resourceCommands(setTask: SetTask, stdin: () => NodeJS.ReadableStream): CommandSpec[] {
  const get = leafCommand<{ output?: string }>({
    name: 'get',
    description: 'show IPPools, IPReservations, the IPAMConfiguration or Nodes (read-only)',
    arguments: [
      { name: 'kind', description: 'ippool, ipreservation, ipamconfiguration or node (calicoctl short names too)' },
      { name: 'name', description: 'one resource by name', optional: true },
    ],
    options: [{ flags: '-o, --output <format>', description: 'table (default), wide, yaml or json' }],
    run: (o, [kind = '', name]) => {
      const output = getOutput(o.output);
      const op = kindOfArgument(allKindOps(), kind);
      setTask(async (ctx) => {
        const listed = await op.get(ctx.datastore, name, output === 'wide');
        return { text: await renderGet(listed, name !== undefined, output), json: undefined };
      }, false, 'read-only');
    },
  });

  const fromFile = (['create', 'apply', 'replace'] as const).map((action) =>
    leafCommand<{ filename?: string }>({
      name: action,
      description: DESCRIPTIONS[action],
      options: [{ flags: '-f, --filename <file>', description: 'YAML or JSON resources (single, multi-document or a List); - for standard input' }],
      run: async (o) => {
        const file = requireFile(o.filename, action);
        // Read before the datastore opens: a file that does not parse never creates a database.
        const docs = await readDocuments({ file, stdin: stdin() });
        setTask(renderedTask((ctx) => manageResources(ctx.datastore, action, docs, file === '-' ? 'stdin' : file), renderManaged), false, ACCESS[action]);
      },
    }),
  );

  const remove = leafCommand<{ filename?: string }>({
    name: 'delete',
    description: 'delete the resources in a file, or one resource by kind and name',
    arguments: [
      { name: 'kind', description: 'ippool, ipreservation, ipamconfiguration or node', optional: true },
      { name: 'name', description: 'the resource to delete', optional: true },
    ],
    options: [{ flags: '-f, --filename <file>', description: 'YAML or JSON resources; - for standard input' }],
    run: async (o, [kind, name]) => {
      if ((kind !== undefined) === (o.filename !== undefined)) throw new CliUsageError('delete needs either -f <file> or <kind> <name>');
      if (kind !== undefined) {
        if (name === undefined) throw new CliUsageError(`delete ${kind} needs a name`);
        kindOfArgument(allKindOps(), kind);
        setTask(renderedTask((ctx) => deleteByName(ctx.datastore, kind, name), renderManaged), false, ACCESS.delete);
        return;
      }
      const file = requireFile(o.filename, 'delete');
      const docs = await readDocuments({ file, stdin: stdin() });
      setTask(renderedTask((ctx) => manageResources(ctx.datastore, 'delete', docs, file === '-' ? 'stdin' : file), renderManaged), false, ACCESS.delete);
    },
  });
  return [get, ...fromFile, remove];
}

import { Option, type Command } from 'commander';
import type { CommandContext } from '../cli-io.js';
import { CliUsageError } from '../errors.js';
import { EXIT } from '../exit-codes.js';
import type { DatastoreAccess } from '../resources/datastore-access.js';
import { allocationRate, booleanFlag, countFlag, ipVersionsFlag, labelsFlag, poolsFromFile, rateFlag } from './foresight-inputs.js';
import { ipamRunway, nodesOutOfRunway } from './ipam-runway.js';
import { ipamWhatIf } from './ipam-what-if.js';
import { renderRunway } from './render-runway.js';
import { renderWhatIf } from './render-what-if.js';

/** What a foresight task hands the runner: the same shape as every `ipam` command's. */
export type ForesightTask = (ctx: CommandContext) => Promise<{ readonly text: string; readonly json: unknown; readonly exitCode?: number }>;
export type SetForesightTask = (task: ForesightTask, json: boolean, access: DatastoreAccess) => void;

function wantsJson(output: string | undefined): boolean {
  if (output === undefined || output === 'table') return false;
  if (output === 'json') return true;
  throw new CliUsageError(`unknown output format ${JSON.stringify(output)}: use table or json`);
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

interface PlanFlags {
  ipVersion?: string;
  rate?: string;
  history?: string;
  output?: string;
}

function withPlanFlags(command: Command): Command {
  return command
    .option('--ip-version <v>', 'address families each pod needs: 4, 6 or 4,6 (default: every family with an enabled pool)')
    .option('--rate <pods/hour>', 'pods started per hour, to turn steps into time')
    .option('--history <file>', 'allocation times (JSON array or one per line, e.g. from a sim run) to measure the rate from')
    .addOption(new Option('-o, --output <format>', 'output format: table (default) or json'));
}

/**
 * `ipam runway` and `ipam what-if` (design/cli.md "runway and what-if"). Both are read-only and
 * exit 1 when a node cannot allocate (or, with `--pods-per-node`, cannot reach the target).
 */
export function addForesightCommands(ipam: Command, setTask: SetForesightTask, stdin: () => NodeJS.ReadableStream): void {
  withPlanFlags(
    ipam
      .command('runway')
      .description('how many more pods fit per node and per pool before allocation fails, and when (read-only; exits 1 when a node cannot allocate now)'),
  ).action((o: PlanFlags) => {
    const json = wantsJson(o.output);
    const ipVersions = ipVersionsFlag(o.ipVersion);
    const rate = rateFlag(o.rate);
    setTask(async (ctx) => {
      const report = await ipamRunway(ctx, { ...(ipVersions === undefined ? {} : { ipVersions }), ...withRate(await allocationRate(rate, o.history)) });
      return { text: renderRunway(report), json: report, exitCode: nodesOutOfRunway(report).length > 0 ? EXIT.problems : EXIT.ok };
    }, json, 'read-only');
  });

  withPlanFlags(
    ipam
      .command('what-if')
      .description('the runway under a proposed change, computed without writing; names the nodes it leaves unable to allocate (exits 1 then)')
      .option('--add-nodes <n>', 'add this many nodes (named what-if-node-<i>)')
      .option('--node-labels <k=v,...>', 'labels of the added nodes (default: none)')
      .option('--pods-per-node <n>', 'fill every node to this many pods and name the nodes that cannot reach it')
      .option('--block-size <n>', 'block size for new blocks of the enabled pools of its family')
      .option('--strict-affinity <bool>', 'true or false')
      .option('--max-blocks-per-host <n>', 'the per-node block cap (needs strict affinity)')
      .option('--disable-pool <name>', 'disable this pool (repeatable)', collect, [])
      .option('--add-pool', 'add the IPPool(s) of -f')
      .option('-f, --file <path>', 'IPPool YAML or JSON for --add-pool (- for stdin)'),
  ).action(
    (
      o: PlanFlags & {
        addNodes?: string;
        nodeLabels?: string;
        podsPerNode?: string;
        blockSize?: string;
        strictAffinity?: string;
        maxBlocksPerHost?: string;
        disablePool: string[];
        addPool?: boolean;
        file?: string;
      },
    ) => {
      const json = wantsJson(o.output);
      const ipVersions = ipVersionsFlag(o.ipVersion);
      const rate = rateFlag(o.rate);
      if (o.addPool === true && o.file === undefined) throw new CliUsageError('--add-pool needs -f <file> with the pool');
      if (o.addPool !== true && o.file !== undefined) throw new CliUsageError('-f is for --add-pool');
      const addNodes = countFlag('--add-nodes', o.addNodes);
      const nodeLabels = labelsFlag(o.nodeLabels);
      if (nodeLabels !== undefined && addNodes === undefined) throw new CliUsageError('--node-labels is for --add-nodes');
      const podsPerNode = countFlag('--pods-per-node', o.podsPerNode, 1);
      const blockSize = countFlag('--block-size', o.blockSize, 1);
      const strictAffinity = booleanFlag('--strict-affinity', o.strictAffinity);
      const maxBlocksPerHost = countFlag('--max-blocks-per-host', o.maxBlocksPerHost);
      setTask(async (ctx) => {
        const addPools = o.file === undefined ? undefined : await poolsFromFile(o.file, stdin());
        const result = await ipamWhatIf(ctx, {
          ...(ipVersions === undefined ? {} : { ipVersions }),
          ...withRate(await allocationRate(rate, o.history)),
          ...(addNodes === undefined ? {} : { addNodes }),
          ...(nodeLabels === undefined ? {} : { nodeLabels }),
          ...(podsPerNode === undefined ? {} : { podsPerNode }),
          ...(blockSize === undefined ? {} : { blockSize }),
          ...(strictAffinity === undefined ? {} : { strictAffinity }),
          ...(maxBlocksPerHost === undefined ? {} : { maxBlocksPerHost }),
          disablePools: o.disablePool,
          ...(addPools === undefined ? {} : { addPools }),
        });
        return { text: renderWhatIf(result), json: result, exitCode: result.unableToAllocate.length > 0 ? EXIT.problems : EXIT.ok };
      }, json, 'read-only');
    },
  );
}

function withRate<T>(rate: T | undefined): { rate?: T } {
  return rate === undefined ? {} : { rate };
}

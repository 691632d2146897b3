import { definedFields } from '@ipamkit/models';
import { renderedTask, type CommandContext, type SetTask } from '../cli-io.js';
import { leafCommand, type CommandSpec, type OptionSpec } from '../command-line/command-spec.js';
import { OUTPUT_OPTION, wantsJson } from '../command-line/output-option.js';
import { CliUsageError } from '../errors.js';
import { allocationRate, booleanFlag, countFlag, ipVersionsFlag, labelsFlag, poolsFromFile, rateFlag } from './foresight-inputs.js';
import { ipamRunway, nodesOutOfRunway } from './ipam-runway.js';
import { ipamWhatIf } from './ipam-what-if.js';
import { renderRunway } from './render-runway.js';
import { renderWhatIf } from './render-what-if.js';


interface PlanFlags {
  readonly ipVersion?: string;
  readonly rate?: string;
  readonly history?: string;
  readonly output?: string;
}

const PLAN_OPTIONS: readonly OptionSpec[] = [
  { flags: '--ip-version <v>', description: 'address families each pod needs: 4, 6 or 4,6 (default: every family with an enabled pool)' },
  { flags: '--rate <pods/hour>', description: 'pods started per hour, to turn steps into time' },
  { flags: '--history <file>', description: 'allocation times (JSON array or one per line, e.g. from a sim run) to measure the rate from' },
  OUTPUT_OPTION,
];

interface WhatIfFlags extends PlanFlags {
  readonly addNodes?: string;
  readonly nodeLabels?: string;
  readonly podsPerNode?: string;
  readonly blockSize?: string;
  readonly strictAffinity?: string;
  readonly maxBlocksPerHost?: string;
  readonly disablePool: readonly string[];
  readonly addPool?: boolean;
  readonly file?: string;
}

/**
 * `ipam runway` and `ipam what-if` (design/cli.md "runway and what-if"). Both are read-only and
 * exit 1 when a node cannot allocate (or, with `--pods-per-node`, cannot reach the target).
 */
export function foresightCommands(setTask: SetTask, stdin: () => NodeJS.ReadableStream): CommandSpec[] {
  const runway = leafCommand<PlanFlags>({
    name: 'runway',
    description: 'how many more pods fit per node and per pool before allocation fails, and when (read-only; exits 1 when a node cannot allocate now)',
    options: PLAN_OPTIONS,
    run: (o) => {
      const json = wantsJson(o.output);
      const ipVersions = ipVersionsFlag(o.ipVersion);
      const rate = rateFlag(o.rate);
      const compute = async (ctx: CommandContext) => ipamRunway(ctx, definedFields({ ipVersions, rate: await allocationRate(rate, o.history) }));
      setTask(renderedTask(compute, renderRunway, (report) => nodesOutOfRunway(report).length > 0), json, 'read-only');
    },
  });

  const whatIf = leafCommand<WhatIfFlags>({
    name: 'what-if',
    description: 'the runway under a proposed change, computed without writing; names the nodes it leaves unable to allocate (exits 1 then)',
    options: [
      { flags: '--add-nodes <n>', description: 'add this many nodes (named what-if-node-<i>)' },
      { flags: '--node-labels <k=v,...>', description: 'labels of the added nodes (default: none)' },
      { flags: '--pods-per-node <n>', description: 'fill every node to this many pods and name the nodes that cannot reach it' },
      { flags: '--block-size <n>', description: 'block size for new blocks of the enabled pools of its family' },
      { flags: '--strict-affinity <bool>', description: 'true or false' },
      { flags: '--max-blocks-per-host <n>', description: 'the per-node block cap (needs strict affinity)' },
      { flags: '--disable-pool <name>', description: 'disable this pool (repeatable)', repeatable: true },
      { flags: '--add-pool', description: 'add the IPPool(s) of -f' },
      { flags: '-f, --file <path>', description: 'IPPool YAML or JSON for --add-pool (- for stdin)' },
      ...PLAN_OPTIONS,
    ],
    run: (o) => {
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
      const compute = async (ctx: CommandContext) => {
        const addPools = o.file === undefined ? undefined : await poolsFromFile(o.file, stdin());
        const rateOf = await allocationRate(rate, o.history);
        const change = { addNodes, nodeLabels, podsPerNode, blockSize, strictAffinity, maxBlocksPerHost, disablePools: o.disablePool, addPools };
        return ipamWhatIf(ctx, definedFields({ ipVersions, rate: rateOf, ...change }));
      };
      setTask(renderedTask(compute, renderWhatIf, (result) => result.unableToAllocate.length > 0), json, 'read-only');
    },
  });
  return [runway, whatIf];
}

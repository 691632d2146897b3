import { writeFileSync } from 'node:fs';
import { renderReport } from '../report/render-report.js';
import { renderSummary } from '../run/render-summary.js';
import type { RunOptions } from '../run/run-options.js';
import { runSim } from '../run/run-sim.js';
import { wantsHelp } from './command-help.js';
import { definedFields, type FlagValues, numberFlag, parseFlags, stringFlag } from '@ipamkit/models';
import { RUN_HELP } from './run-help.js';
import { replayWhatIf, renderReplay } from '../what-if/replay-what-if.js';
import { parseWhatIf } from '../what-if/what-if-flags.js';
import { invalidSimFlag, SimConfigError } from '../errors.js';
import type { BinIo } from '@ipamkit/models';

/** The flags the command accepts; its help (`run-help.ts`) is keyed by them. */
export const RUN_SPEC = {
  nodes: { type: 'string' },
  pods: { type: 'string' },
  churn: { type: 'string' },
  datastore: { type: 'string' },
  'sqlite-path': { type: 'string' },
  'etcd-endpoints': { type: 'string' },
  spawn: { type: 'boolean' },
  services: { type: 'string' },
  'grace-ms': { type: 'string' },
  seed: { type: 'string' },
  report: { type: 'string' },
  'what-if': { type: 'string' },
} as const;

/** `ipamkit-sim run`: exit 0 only when the final check is clean; `--help` anywhere prints the help instead. */
export async function runCommand(args: readonly string[], io: Pick<BinIo, 'stdout' | 'stderr'>): Promise<number> {
  if (wantsHelp(args)) {
    io.stdout.write(RUN_HELP);
    return 0;
  }
  const f = parseFlags(args, RUN_SPEC, invalidSimFlag);
  const whatIf = stringFlag(f, 'what-if');
  if (whatIf !== undefined) return replayCommand(f, whatIf, io);
  const partial: Partial<Record<keyof RunOptions, unknown>> = {
    nodes: numberFlag(f, 'nodes', invalidSimFlag),
    pods: numberFlag(f, 'pods', invalidSimFlag),
    churn: numberFlag(f, 'churn', invalidSimFlag),
    datastore: stringFlag(f, 'datastore'),
    sqlitePath: stringFlag(f, 'sqlite-path'),
    etcdEndpoints: stringFlag(f, 'etcd-endpoints')?.split(','),
    spawn: f['spawn'] === true ? true : undefined,
    services: numberFlag(f, 'services', invalidSimFlag),
    gracePeriodMs: numberFlag(f, 'grace-ms', invalidSimFlag),
    seed: numberFlag(f, 'seed', invalidSimFlag),
    reportPath: stringFlag(f, 'report'),
  };
  const options = definedFields(partial) as Partial<RunOptions>;
  const result = await runSim(options, { progress: io.stderr });
  io.stdout.write(renderSummary(result));
  if (options.reportPath !== undefined) {
    writeFileSync(options.reportPath, renderReport(result));
    io.stdout.write(`report written to ${options.reportPath}\n`);
  }
  return result.check.violations.length === 0 ? 0 : 1;
}

/** `run --what-if "<flags>"`: the replay instead of the churn run (design/sim.md, "What-if replay"). */
async function replayCommand(f: FlagValues, whatIf: string, io: Pick<BinIo, 'stdout' | 'stderr'>): Promise<number> {
  const ignored = ['pods', 'churn', 'spawn', 'services', 'grace-ms', 'seed', 'report'].filter((k) => f[k] !== undefined);
  if (ignored.length > 0) throw new SimConfigError(`--what-if replays a fill; it does not take --${ignored.join(', --')}`);
  const datastore = stringFlag(f, 'datastore') ?? 'sqlite';
  if (datastore !== 'sqlite' && datastore !== 'etcd') throw new SimConfigError(`--datastore must be sqlite or etcd, got ${datastore}`);
  const nodes = numberFlag(f, 'nodes', invalidSimFlag) ?? 8;
  if (!Number.isInteger(nodes) || nodes < 1 || nodes > 200) throw new SimConfigError(`--nodes must be an integer from 1 to 200 with --what-if, got ${nodes}`);
  const etcdEndpoints = stringFlag(f, 'etcd-endpoints')?.split(',');
  const result = await replayWhatIf({ nodes, datastore, replay: parseWhatIf(whatIf), ...definedFields({ sqlitePath: stringFlag(f, 'sqlite-path'), etcdEndpoints }) });
  io.stdout.write(renderReplay(result));
  return result.agrees ? 0 : 1;
}

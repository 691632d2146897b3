import { writeFileSync } from 'node:fs';
import type { HammerOptions } from '../hammer/hammer-options.js';
import { renderHammer } from '../hammer/render-hammer.js';
import { runHammer } from '../hammer/run-hammer.js';
import { wantsHelp } from './command-help.js';
import { HAMMER_HELP } from './hammer-help.js';
import { definedFields, numberFlag, parseFlags, stringFlag } from '@ipamkit/models';
import { invalidSimFlag } from '../errors.js';
import type { BinIo } from '@ipamkit/models';

/** The flags the command accepts; its help (`hammer-help.ts`) is keyed by them. */
export const HAMMER_SPEC = {
  processes: { type: 'string' },
  ops: { type: 'string' },
  'kill-rate': { type: 'string' },
  datastore: { type: 'string' },
  'restart-etcd': { type: 'boolean' },
  'pods-per-process': { type: 'string' },
  'grace-ms': { type: 'string' },
  seed: { type: 'string' },
  'all-callers': { type: 'boolean' },
  'fault-rate': { type: 'string' },
  services: { type: 'string' },
  'controller-kill-ms': { type: 'string' },
  json: { type: 'string' },
} as const;

/** `ipamkit-sim hammer`: exit 1 on any violation. `--restart-etcd` implies `--datastore etcd`; `--help` anywhere prints the help. */
export async function hammerCommand(args: readonly string[], io: Pick<BinIo, 'stdout' | 'stderr'>): Promise<number> {
  if (wantsHelp(args)) {
    io.stdout.write(HAMMER_HELP);
    return 0;
  }
  const f = parseFlags(args, HAMMER_SPEC, invalidSimFlag);
  const restart = f['restart-etcd'] === true;
  const partial: Partial<Record<keyof HammerOptions, unknown>> = {
    processes: numberFlag(f, 'processes', invalidSimFlag),
    ops: numberFlag(f, 'ops', invalidSimFlag),
    killRate: numberFlag(f, 'kill-rate', invalidSimFlag),
    datastore: stringFlag(f, 'datastore') ?? (restart ? 'etcd' : undefined),
    restartEtcd: restart ? true : undefined,
    podsPerProcess: numberFlag(f, 'pods-per-process', invalidSimFlag),
    gracePeriodMs: numberFlag(f, 'grace-ms', invalidSimFlag),
    seed: numberFlag(f, 'seed', invalidSimFlag),
    allCallers: f['all-callers'] === true ? true : undefined,
    faultRate: numberFlag(f, 'fault-rate', invalidSimFlag),
    services: numberFlag(f, 'services', invalidSimFlag),
    controllerKillMs: numberFlag(f, 'controller-kill-ms', invalidSimFlag),
  };
  const options = definedFields(partial) as Partial<HammerOptions>;
  const result = await runHammer(options, io.stderr);
  io.stdout.write(renderHammer(result));
  const json = stringFlag(f, 'json');
  if (json !== undefined) writeFileSync(json, `${JSON.stringify(result, null, 2)}\n`);
  return result.violations.length === 0 ? 0 : 1;
}

import { definedFields } from '@ipamkit/models';
import { leafCommand, type CommandSpec } from '../command-line/command-spec.js';
import { OUTPUT_OPTION, wantsJson } from '../command-line/output-option.js';
import { CliUsageError } from '../errors.js';
import { renderedTask, type SetTask } from '../cli-io.js';
import { poolsFromFile } from '../foresight/foresight-inputs.js';
import { planPoolMigration } from './migrate-pool-plan.js';
import { finishPoolMigration, poolMigrationStatus, startPoolMigration } from './migrate-pool-steps.js';
import { renderMigrationFinish, renderMigrationPlan, renderMigrationStart, renderMigrationStatus } from './render-migrate-pool.js';

const STEPS = ['plan', 'start', 'status', 'finish'] as const;
type Step = (typeof STEPS)[number];

function isStep(value: string): value is Step {
  return (STEPS as readonly string[]).includes(value);
}

/**
 * `ipam migrate-pool <plan|start|status|finish> --from <pool> --to <pool>` (design/cli.md
 * "migrate-pool"). plan and status are read-only; start and finish write and are resumable.
 */
export function migratePoolCommand(setTask: SetTask, stdin: () => NodeJS.ReadableStream): CommandSpec {
  return leafCommand<{ from: string; to: string; file?: string; output?: string }>({
    name: 'migrate-pool',
    description: 'move workloads from one pool to another: plan, start, status, finish (never deletes pods)',
    arguments: [{ name: 'step', description: 'plan | start | status | finish' }],
    options: [
      { flags: '--from <pool>', description: 'the pool to leave', required: true },
      { flags: '--to <pool>', description: 'the pool to move to', required: true },
      { flags: '-f, --file <path>', description: 'IPPool YAML or JSON defining --to when it does not exist yet (plan, start)' },
      OUTPUT_OPTION,
    ],
    run: (o, [step = '']) => {
      if (!isStep(step)) throw new CliUsageError(`migrate-pool step must be one of ${STEPS.join(', ')}, got ${JSON.stringify(step)}`);
      const json = wantsJson(o.output);
      if (o.file !== undefined && (step === 'status' || step === 'finish')) throw new CliUsageError(`-f is for plan and start, not ${step}`);
      const names = { from: o.from, to: o.to };
      const file = o.file;
      const withFile = async () => {
        const toFile = file === undefined ? undefined : await poolsFromFile(file, stdin());
        return { ...names, ...definedFields({ toFile }) };
      };
      if (step === 'plan') setTask(renderedTask(async (ctx) => planPoolMigration(ctx, await withFile()), renderMigrationPlan, (plan) => !plan.fits), json, 'read-only');
      else if (step === 'start') setTask(renderedTask(async (ctx) => startPoolMigration(ctx, await withFile()), renderMigrationStart), json, 'must-exist');
      else if (step === 'status') setTask(renderedTask((ctx) => poolMigrationStatus(ctx, names), renderMigrationStatus), json, 'read-only');
      else setTask(renderedTask((ctx) => finishPoolMigration(ctx, names), renderMigrationFinish), json, 'must-exist');
    },
  });
}

import { parseArgs } from 'node:util';
import { runApiReport, UPDATE_COMMAND } from './run-api-report.js';

export const USAGE = `Usage: ipamkit-api-report [--update] [--root <repository root>]

Compares packages/<pkg>/api/<pkg>.api.md of every public package with the surface of its built
dist/*.d.ts, and fails on \`export *\` in any packages/*/src/index.ts. Build first; \`--update\`
(\`${UPDATE_COMMAND}\`) rewrites the reports.`;

/** Runs the command; returns the exit code and writes through the given sinks. */
export function runApiReportCommand(argv: string[], io: { cwd: string; out: (line: string) => void; err: (line: string) => void }): number {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: { update: { type: 'boolean' }, root: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    }));
  } catch (error) {
    io.err(`ipamkit-api-report: ${error instanceof Error ? error.message : String(error)}`);
    io.err(USAGE);
    return 2;
  }
  if (values.help === true) {
    io.out(USAGE);
    return 0;
  }
  const result = runApiReport({ root: values.root ?? io.cwd, update: values.update === true });
  const sink = result.exitCode === 0 ? io.out : io.err;
  for (const line of result.lines) sink(line);
  return result.exitCode;
}

import { type CommandIo, parseCommandLine } from '../utils/command-line.js';
import { runApiReport, UPDATE_COMMAND } from './run-api-report.js';

export const USAGE = `Usage: ipamkit-api-report [--update] [--root <repository root>]

Compares packages/<pkg>/api/<pkg>.api.md of every public package with the surface of its built
dist/*.d.ts, and fails on \`export *\` in any packages/*/src/index.ts. Build first; \`--update\`
(\`${UPDATE_COMMAND}\`) rewrites the reports.`;

/** Runs the command; returns the exit code and writes through the given sinks. */
export function runApiReportCommand(argv: readonly string[], io: CommandIo): number {
  const values = parseCommandLine(argv, { update: { type: 'boolean' }, root: { type: 'string' } }, { name: 'ipamkit-api-report', usage: USAGE }, io);
  if (typeof values === 'number') return values;
  const result = runApiReport({ root: values.root ?? io.cwd, update: values.update === true });
  const sink = result.exitCode === 0 ? io.out : io.err;
  for (const line of result.lines) sink(line);
  return result.exitCode;
}

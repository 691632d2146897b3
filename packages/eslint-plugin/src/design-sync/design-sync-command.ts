import { type CommandIo, parseCommandLine } from '../utils/command-line.js';
import { runDesignSync } from './run-design-sync.js';

export const USAGE = `Usage: ipamkit-design-sync [--base <rev>] [--head <rev>] [--main-branch main]
                           [--readme design/README.md] [--skip-codeowners] [--skip-citations]
                           [--write-codeowners [--owner-template '@ipamkit/{package}']]

Fails when the commit range changes files under a package's "applies to" glob (design/README.md)
without touching that package's design doc, unless a commit trailer or a changeset declares
"Design-Sync-Exempt: bug-fix | refactor | comments | deps". Also checks .github/CODEOWNERS, and
that every path cited in comments and docs (design/…, packages/…, with #anchors) exists and that
nothing cites a document outside the repository.
The range defaults to $NX_BASE..$NX_HEAD when set (as for nx affected), else the merge-base with the
main branch, or HEAD~1..HEAD on the main branch itself.`;

const FLAGS = {
  base: { type: 'string' },
  head: { type: 'string' },
  'main-branch': { type: 'string' },
  readme: { type: 'string' },
  'skip-codeowners': { type: 'boolean' },
  'skip-citations': { type: 'boolean' },
  'write-codeowners': { type: 'boolean' },
  'owner-template': { type: 'string' },
} as const;

/** Runs the command; returns the exit code and writes through the given sinks; `NX_BASE`/`NX_HEAD` come from `io.env`. */
export function runDesignSyncCommand(argv: readonly string[], io: CommandIo): number {
  const values = parseCommandLine(argv, FLAGS, { name: 'ipamkit-design-sync', usage: USAGE }, io);
  if (typeof values === 'number') return values;
  const env = io.env ?? {};
  const report = runDesignSync({
    cwd: io.cwd,
    base: values.base ?? nonEmpty(env.NX_BASE),
    head: values.head ?? nonEmpty(env.NX_HEAD),
    mainBranch: values['main-branch'],
    readme: values.readme,
    codeowners: values['write-codeowners'] === true ? 'write' : values['skip-codeowners'] === true ? 'skip' : 'check',
    ownerTemplate: values['owner-template'],
    citations: values['skip-citations'] === true ? 'skip' : 'check',
  });
  const sink = report.exitCode === 0 ? io.out : io.err;
  for (const line of report.lines) sink(line);
  return report.exitCode;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

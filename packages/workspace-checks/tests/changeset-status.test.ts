import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCommand, type CommandResult } from './support/run-command.js';
import { TempClone } from './support/temp-clone.js';

// design/workspace-checks.md, "Versioning": the pull-request gate `changeset status --since=<base>`
// fails a package change that carries no changeset, and passes once it has one.

let clone: TempClone;
let withoutChangeset: CommandResult;
let withChangeset: CommandResult;
let docsOnly: CommandResult;

const status = (since: string): Promise<CommandResult> =>
  runCommand(process.execPath, [clone.path('node_modules/@changesets/cli/bin.js'), 'status', `--since=${since}`], { cwd: clone.dir });

beforeAll(async () => {
  clone = await TempClone.create('changeset-status');
  const base = (await clone.git('rev-parse', 'HEAD')).trim();
  clone.append('design/models.md', '\nA docs-only change.\n');
  await clone.commit('docs only');
  docsOnly = await status(base);
  clone.append('packages/models/src/index.ts', '\nexport const probe = 1;\n');
  await clone.commit('models: a change without a changeset');
  withoutChangeset = await status(base);
  clone.write('.changeset/models-status-probe.md', '---\n"@ipamkit/models": patch\n---\n\nA probe change.\n');
  await clone.commit('models: its changeset');
  withChangeset = await status(base);
}, 300_000);

afterAll(() => {
  clone.remove();
});

describe('changeset status --since=<base>', () => {
  it('passes a change that touches no package', () => {
    expect(docsOnly.exitCode).toBe(0);
  });

  it('fails a package change without a changeset', () => {
    expect(withoutChangeset.exitCode).toBe(1);
    expect(`${withoutChangeset.stdout}${withoutChangeset.stderr}`).toContain('Some packages have been changed but no changesets were found');
  });

  it('passes the same change once it has a changeset', () => {
    expect(withChangeset.exitCode).toBe(0);
  });
});

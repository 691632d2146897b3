import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { generateCodeowners } from '../../src/design-sync/codeowners.js';
import { runDesignSyncCommand } from '../../src/design-sync/design-sync-command.js';
import { parseDesignTable } from '../../src/design-sync/design-table.js';
import { EXEMPTION_KINDS } from '../../src/design-sync/exemptions.js';
import { runDesignSync } from '../../src/design-sync/run-design-sync.js';
import { GitFixture } from './git-fixture.js';

const README = `# design index

| package | design doc | applies to | status |
|---|---|---|---|
| models | [models.md](models.md) | \`packages/models/src/**\` | implemented |
| gc | [gc.md](gc.md) | \`packages/gc/src/**\`, \`packages/gc/manifests/**\` | planned |
`;

let repo: GitFixture;

/** A repository on main with two documented packages and a generated CODEOWNERS. */
beforeEach(() => {
  repo = GitFixture.create();
  repo.write({
    'design/README.md': README,
    'design/models.md': '# models\n',
    'design/gc.md': '# gc\n',
    'packages/models/src/cidr.ts': 'export const a = 1;\n',
    'packages/gc/src/controller.ts': 'export const b = 1;\n',
    'packages/gc/README.md': '# gc\n',
    '.changeset/README.md': '# Changesets\n',
    '.github/CODEOWNERS': generateCodeowners(parseDesignTable(README)),
  });
  repo.commit('Initial layout');
  repo.git('checkout', '--quiet', '-b', 'feature');
});

afterEach(() => {
  repo.remove();
});

/** The range check alone; citations have their own tests (citations.test.ts). */
function check(options: { base?: string; head?: string } = {}) {
  return runDesignSync({ cwd: repo.dir, citations: 'skip', ...options });
}

describe('design sync on a branch (range = merge-base with main)', () => {
  it('fails when a change under a package glob does not touch its design doc', () => {
    repo.write({ 'packages/gc/src/controller.ts': 'export const b = 2;\n' });
    const sha = repo.commit('Change the GC');
    const report = check();
    expect(report.exitCode).toBe(1);
    expect(report.lines).toContain('  FAIL  gc: changes packages/gc/src/controller.ts without touching design/gc.md');
    expect(report.lines).toContain(`        commit without exemption: ${sha.slice(0, 12)} Change the GC`);
  });

  it('passes when the range also updates the design doc', () => {
    repo.write({ 'packages/gc/src/controller.ts': 'export const b = 2;\n' });
    repo.commit('Change the GC');
    repo.write({ 'design/gc.md': '# gc\n\nNew behaviour.\n' });
    repo.commit('Document it');
    const report = check();
    expect(report.exitCode).toBe(0);
    expect(report.lines).toContain('  ok    gc: design/gc.md updated');
  });

  it('ignores files outside every applies-to glob', () => {
    repo.write({ 'packages/gc/README.md': '# gc, reworded\n', 'scripts/tool.sh': 'true\n' });
    repo.commit('Docs only');
    expect(check()).toEqual({
      exitCode: 0,
      lines: [
        expect.stringMatching(/^design-sync: merge-base\(main, HEAD\)\.\.HEAD: 2 files, 1 commits$/),
        '  ok    .github/CODEOWNERS covers all 2 packages',
      ],
    });
  });

  it.each(EXEMPTION_KINDS)('passes with a "Design-Sync-Exempt: %s" commit trailer', (kind) => {
    repo.write({ 'packages/gc/src/controller.ts': 'export const b = 2;\n' });
    const sha = repo.commit(`Change the GC\n\nWhy this needs no doc change.\n\nDesign-Sync-Exempt: ${kind}`);
    const report = check();
    expect(report.exitCode).toBe(0);
    expect(report.lines).toContain(`  ok    gc: exempt via ${sha.slice(0, 12)} (${kind})`);
  });

  it.each(EXEMPTION_KINDS)('passes with a changeset declaring "%s" for the package', (kind) => {
    repo.write({
      'packages/gc/src/controller.ts': 'export const b = 2;\n',
      '.changeset/quiet-gc-fix.md': `---\n"@ipamkit/gc": patch\n---\n\nFix the GC.\n\n<!-- Design-Sync-Exempt: ${kind} -->\n`,
    });
    repo.commit('Change the GC');
    const report = check();
    expect(report.exitCode).toBe(0);
    expect(report.lines).toContain(`  ok    gc: exempt via .changeset/quiet-gc-fix.md (${kind})`);
  });

  it('does not let a changeset for another package exempt this one', () => {
    repo.write({
      'packages/gc/src/controller.ts': 'export const b = 2;\n',
      '.changeset/models-deps.md': '---\n"@ipamkit/models": patch\n---\n\nBump.\n\nDesign-Sync-Exempt: deps\n',
    });
    repo.commit('Change the GC');
    expect(check().exitCode).toBe(1);
  });

  it('lets an empty changeset with an exemption cover every package', () => {
    repo.write({
      'packages/gc/src/controller.ts': 'export const b = 2;\n',
      'packages/models/src/cidr.ts': 'export const a = 2;\n',
      '.changeset/rename.md': '---\n---\n\nDesign-Sync-Exempt: refactor\n',
    });
    repo.commit('Rename things');
    expect(check().exitCode).toBe(0);
  });

  it('requires the trailer on every commit that touches the package', () => {
    repo.write({ 'packages/gc/src/controller.ts': 'export const b = 2;\n' });
    repo.commit('Reword a log\n\nDesign-Sync-Exempt: comments');
    repo.write({ 'packages/gc/src/controller.ts': 'export const b = 3;\n' });
    const sha = repo.commit('Change behaviour');
    const report = check();
    expect(report.exitCode).toBe(1);
    expect(report.lines).toContain(`        commit without exemption: ${sha.slice(0, 12)} Change behaviour`);
  });

  it('rejects an unknown exemption kind with a clear error', () => {
    repo.write({ 'packages/gc/src/controller.ts': 'export const b = 2;\n' });
    const sha = repo.commit('Change the GC\n\nDesign-Sync-Exempt: trivial');
    const report = check();
    expect(report.exitCode).toBe(2);
    expect(report.lines.at(-1)).toBe(
      `design-sync: commit ${sha.slice(0, 12)}: unknown Design-Sync-Exempt kind "trivial" (expected one of bug-fix, refactor, comments, deps)`,
    );
  });

  it('summarizes a long list of changed files', () => {
    repo.write(Object.fromEntries(Array.from({ length: 7 }, (_, i) => [`packages/models/src/f${i}.ts`, `export const f = ${i};\n`])));
    repo.commit('Many files');
    expect(check().lines).toContain(
      '  FAIL  models: changes packages/models/src/f0.ts, packages/models/src/f1.ts, packages/models/src/f2.ts, ' +
        'packages/models/src/f3.ts, packages/models/src/f4.ts and 2 more files without touching design/models.md',
    );
  });

  it('checks every glob of a package', () => {
    repo.write({ 'packages/gc/manifests/rbac.yaml': 'kind: ClusterRole\n' });
    repo.commit('Add RBAC');
    expect(check().lines).toContain('  FAIL  gc: changes packages/gc/manifests/rbac.yaml without touching design/gc.md');
  });
});

describe('design sync on main and with explicit ranges', () => {
  it('checks only the last commit on main', () => {
    repo.git('checkout', '--quiet', 'main');
    repo.write({ 'packages/models/src/cidr.ts': 'export const a = 2;\n' });
    repo.commit('Undocumented change');
    expect(check().exitCode).toBe(1);
    repo.write({ 'design/models.md': '# models\n\nLater.\n' });
    repo.commit('Docs only');
    expect(check().exitCode).toBe(0);
  });

  it('takes --base/--head (the values nx affected uses) over the default range', () => {
    repo.git('checkout', '--quiet', 'main');
    const base = repo.git('rev-parse', 'HEAD').trim();
    repo.write({ 'packages/models/src/cidr.ts': 'export const a = 2;\n' });
    const undocumented = repo.commit('Undocumented change');
    repo.write({ 'design/models.md': '# models\n\nLater.\n' });
    repo.commit('Docs only');
    expect(check({ base, head: undocumented }).exitCode).toBe(1);
    expect(check({ base }).exitCode).toBe(0);
  });

  it('reads NX_BASE and NX_HEAD from the environment in the command', () => {
    const base = repo.git('rev-parse', 'HEAD').trim();
    repo.write({ 'packages/gc/src/controller.ts': 'export const b = 2;\n' });
    const head = repo.commit('Change the GC');
    repo.write({ 'design/gc.md': '# gc\n\nNow documented.\n' });
    repo.commit('Document it');
    const out: string[] = [];
    const code = runDesignSyncCommand([], { env: { NX_BASE: base, NX_HEAD: head }, cwd: repo.dir, out: (l) => out.push(l), err: (l) => out.push(l) });
    expect(code).toBe(1);
    expect(out[0]).toBe(`design-sync: ${base}..${head}: 1 files, 1 commits`);
  });

  it('compares a first commit with the empty tree', () => {
    const fresh = GitFixture.create();
    try {
      fresh.write({
        'design/README.md': README,
        'packages/gc/src/controller.ts': 'export const b = 1;\n',
        '.github/CODEOWNERS': generateCodeowners(parseDesignTable(README)),
      });
      fresh.commit('First');
      expect(runDesignSync({ cwd: fresh.dir }).lines).toContain(
        '  FAIL  gc: changes packages/gc/src/controller.ts without touching design/gc.md',
      );
    } finally {
      fresh.remove();
    }
  });

  it('has nothing to check in a repository without commits', () => {
    const fresh = GitFixture.create();
    try {
      fresh.write({ 'design/README.md': README });
      expect(runDesignSync({ cwd: fresh.dir, codeowners: 'skip', citations: 'skip' })).toEqual({
        exitCode: 0,
        lines: ['design-sync: nothing to check (the repository has no commits yet)'],
      });
    } finally {
      fresh.remove();
    }
  });

  it('reports a bad revision as a usage error', () => {
    const report = check({ base: 'no-such-rev' });
    expect(report).toEqual({ exitCode: 2, lines: ['design-sync: base "no-such-rev" is not a commit'] });
  });
});

describe('CODEOWNERS', () => {
  it('fails when a package path has no owner line', () => {
    repo.write({ '.github/CODEOWNERS': '/packages/models/ @ipamkit/models\n/packages/gc/\n' });
    repo.commit('Drop the GC owner\n\nDesign-Sync-Exempt: comments');
    const report = check();
    expect(report.exitCode).toBe(1);
    expect(report.lines).toContain('  FAIL  .github/CODEOWNERS has no owner line for /packages/gc/ (package gc)');
  });

  it('writes CODEOWNERS from the table with --write-codeowners', () => {
    repo.write({ '.github/CODEOWNERS': '' });
    const out: string[] = [];
    const io = { cwd: repo.dir, out: (l: string) => out.push(l), err: (l: string) => out.push(l) };
    expect(runDesignSyncCommand(['--write-codeowners', '--owner-template', '@acme/{package}-team'], io)).toBe(0);
    expect(out).toEqual(['design-sync: wrote .github/CODEOWNERS for 2 packages']);
    expect(repo.git('show', ':.github/CODEOWNERS')).not.toContain('@acme');
    const written = repo.git('diff', '--no-color', '--', '.github/CODEOWNERS');
    expect(written).toContain('+/packages/gc/ @acme/gc-team');
    expect(written).toContain('+/design/models.md @acme/models-team');
  });

  it('rejects an unknown flag with the usage text', () => {
    const err: string[] = [];
    const code = runDesignSyncCommand(['--frobnicate'], { cwd: repo.dir, out: () => undefined, err: (l) => err.push(l) });
    expect(code).toBe(2);
    expect(err[0]).toMatch(/^ipamkit-design-sync: Unknown option '--frobnicate'/);
  });
});

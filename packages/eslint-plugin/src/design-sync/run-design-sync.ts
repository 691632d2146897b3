import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DesignSyncError } from '../errors.js';
import { checkCitations } from './citations/check-citations.js';
import { checkDesignSync, type PackageVerdict, type RangeCommit } from './check-design-sync.js';
import { CODEOWNERS_PATH, DEFAULT_OWNER_TEMPLATE, generateCodeowners, missingOwners } from './codeowners.js';
import { type DesignEntry, parseDesignTable } from './design-table.js';
import { EXEMPTION_KINDS, EXEMPTION_TRAILER, type ChangesetExemption, parseChangeset, parseExemptions } from './exemptions.js';
import { Git } from './git.js';
import { resolveRange } from './resolve-range.js';

export interface DesignSyncOptions {
  /** Any directory inside the repository. */
  cwd: string;
  base?: string | undefined;
  head?: string | undefined;
  mainBranch?: string | undefined;
  /** Repository-relative path of the design index. */
  readme?: string | undefined;
  codeowners?: 'check' | 'skip' | 'write' | undefined;
  ownerTemplate?: string | undefined;
  /** Whether cited repository paths, anchors and outside documents are checked (default 'check'). */
  citations?: 'check' | 'skip' | undefined;
}

/** 0: in sync; 1: a package, CODEOWNERS or a citation is out of sync; 2: the check could not run. */
export interface DesignSyncReport {
  exitCode: 0 | 1 | 2;
  lines: string[];
}

const CHANGESET = /^\.changeset\/(?!README\.md$)[^/]+\.md$/;

export function runDesignSync(options: DesignSyncOptions): DesignSyncReport {
  const lines: string[] = [];
  try {
    const git = new Git(options.cwd);
    const root = git.run(['rev-parse', '--show-toplevel']).trim();
    const readme = options.readme ?? 'design/README.md';
    const readmeFile = join(root, readme);
    if (!existsSync(readmeFile)) throw new DesignSyncError(`${readme} not found in ${root}`);
    const entries = parseDesignTable(readFileSync(readmeFile, 'utf8'), readme);
    const template = options.ownerTemplate ?? DEFAULT_OWNER_TEMPLATE;

    if (options.codeowners === 'write') {
      const target = join(root, CODEOWNERS_PATH);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, generateCodeowners(entries, template));
      return { exitCode: 0, lines: [`design-sync: wrote ${CODEOWNERS_PATH} for ${entries.length} packages`] };
    }

    const rangeOk = checkRange(git, entries, options, lines);
    const ownersOk = options.codeowners === 'skip' ? true : checkOwners(root, entries, lines);
    const citationsOk = options.citations === 'skip' ? true : checkTreeCitations(git, root, lines);
    return { exitCode: rangeOk && ownersOk && citationsOk ? 0 : 1, lines };
  } catch (error) {
    if (!(error instanceof DesignSyncError)) throw error;
    return { exitCode: 2, lines: [...lines, `design-sync: ${error.message}`] };
  }
}

function checkRange(git: Git, entries: DesignEntry[], options: DesignSyncOptions, lines: string[]): boolean {
  const range = resolveRange(git, { base: options.base, head: options.head, mainBranch: options.mainBranch ?? 'main' });
  if (range.kind === 'empty') {
    lines.push(`design-sync: nothing to check (${range.reason})`);
    return true;
  }
  const changedFiles = git.changedFiles(range.base, range.head);
  const commits: RangeCommit[] = git.commits(range.base, range.head).map((c) => ({
    sha: c.sha,
    subject: c.message.split('\n')[0] ?? '',
    files: c.files,
    exemptions: parseExemptions(c.message, `commit ${c.sha.slice(0, 12)}`),
  }));
  const changesets: ChangesetExemption[] = git
    .changedWithStatus(range.base, range.head)
    .filter((f) => f.status !== 'D' && CHANGESET.test(f.path))
    .map((f) => parseChangeset(git.show(range.head, f.path) ?? '', f.path));

  const result = checkDesignSync({ entries, changedFiles, commits, changesets });
  lines.push(`design-sync: ${range.description}: ${changedFiles.length} files, ${commits.length} commits`);
  for (const verdict of result.verdicts) lines.push(...describe(verdict));
  if (!result.ok) {
    lines.push(
      `  Update the design doc in the same range, or declare why not: a commit trailer "${EXEMPTION_TRAILER}: <kind>" ` +
        `on every commit touching the package, or a line "${EXEMPTION_TRAILER}: <kind>" in a changeset body; ` +
        `kind is one of ${EXEMPTION_KINDS.join(', ')}.`,
    );
  }
  return result.ok;
}

function describe(verdict: PackageVerdict): string[] {
  switch (verdict.outcome) {
    case 'untouched':
      return [];
    case 'documented':
      return [`  ok    ${verdict.package}: ${verdict.designDoc} updated`];
    case 'exempt':
      return [`  ok    ${verdict.package}: exempt via ${verdict.via.join('; ')}`];
    case 'violation':
      return [
        `  FAIL  ${verdict.package}: changes ${summarize(verdict.files)} without touching ${verdict.designDoc}`,
        ...verdict.unexemptedCommits.map((c) => `        commit without exemption: ${c}`),
      ];
  }
}

/** A long file list would bury the verdict: show the first few. */
function summarize(files: string[], shown = 5): string {
  const head = files.slice(0, shown).join(', ');
  return files.length > shown ? `${head} and ${files.length - shown} more files` : head;
}

function checkOwners(root: string, entries: DesignEntry[], lines: string[]): boolean {
  const file = join(root, CODEOWNERS_PATH);
  if (!existsSync(file)) {
    lines.push(`  FAIL  ${CODEOWNERS_PATH} is missing: run ipamkit-design-sync --write-codeowners`);
    return false;
  }
  const missing = missingOwners(readFileSync(file, 'utf8'), entries);
  for (const m of missing) lines.push(`  FAIL  ${CODEOWNERS_PATH} has no owner line for /${m.path} (package ${m.package})`);
  if (missing.length === 0) lines.push(`  ok    ${CODEOWNERS_PATH} covers all ${entries.length} packages`);
  return missing.length === 0;
}

function checkTreeCitations(git: Git, root: string, lines: string[]): boolean {
  const problems = checkCitations(root, git.workingTreeFiles());
  for (const p of problems) lines.push(`  FAIL  ${p.file}:${String(p.line)}: ${p.message}`);
  if (problems.length === 0) lines.push('  ok    every cited path, anchor and document is in the repository');
  return problems.length === 0;
}

import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runCommand } from './support/run-command.js';
import { WORKSPACE_ROOT } from './support/temp-clone.js';

// design/README.md, "CI and release"; design/workspace-checks.md, "Workflows".

interface Step {
  name?: string;
  if?: string;
  run?: string;
  uses?: string;
  with?: Record<string, string>;
  env?: Record<string, string>;
}

interface Workflow {
  name?: string;
  on: { pull_request?: unknown; push?: { branches?: string[] }; workflow_run?: unknown };
  permissions?: Record<string, string>;
  jobs: Record<string, { if?: string; steps: Step[]; permissions?: Record<string, string>; 'timeout-minutes'?: number }>;
}

const WORKFLOWS = join(WORKSPACE_ROOT, '.github', 'workflows');
const VALIDATOR = join(WORKSPACE_ROOT, 'node_modules', '.bin', 'action-validator');
const scratch = mkdtempSync(join(tmpdir(), 'ipamkit-workflows-'));

afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
});

const readText = (relative: string): string => readFileSync(join(WORKSPACE_ROOT, relative), 'utf8');
const readWorkflow = (file: string): Workflow => parse(readText(`.github/workflows/${file}`)) as Workflow;
const stepsOf = (workflow: Workflow): Step[] => Object.values(workflow.jobs).flatMap((job) => job.steps);
const runsOn = (steps: Step[], event: 'pull_request' | 'push'): string =>
  steps
    .filter((step) => step.if === undefined || step.if.includes(`github.event_name == '${event}'`))
    .map((step) => step.run ?? '')
    .join('\n');

/** The Debian packages a script installs with `apt-get install` (options and redirections dropped). */
function aptPackages(script: string): Set<string> {
  const packages = new Set<string>();
  for (const match of script.replace(/\\\n/g, ' ').matchAll(/apt-get install([^\n;&|]*)/g)) {
    for (const word of (match[1] ?? '').split(/\s+/)) {
      if (/^[a-z0-9][a-z0-9+.-]+$/.test(word)) packages.add(word);
    }
  }
  return packages;
}

/** The targets the root `npm test` runs: `nx run-many -t <targets>`. */
function npmTestTargets(): string[] {
  const scripts = (JSON.parse(readText('package.json')) as { scripts: Record<string, string> }).scripts;
  const targets = /nx run-many -t ((?:[a-z][a-z-]* )+)/.exec(scripts['test'] ?? '')?.[1];
  return (targets ?? '').trim().split(' ');
}

describe('action-validator', () => {
  const files = readdirSync(WORKFLOWS).filter((file) => /\.ya?ml$/.test(file));

  it('finds both workflows', () => {
    expect(files).toEqual(expect.arrayContaining(['ci.yml', 'release.yml']));
  });

  it.each(files)('accepts %s', async (file) => {
    const result = await runCommand(VALIDATOR, [join(WORKFLOWS, file)], { cwd: WORKSPACE_ROOT });
    expect(result.exitCode, `${result.stdout}${result.stderr}`).toBe(0);
  });

  it('rejects a workflow with a misspelt step key, so acceptance means something', async () => {
    const broken = join(scratch, 'broken.yml');
    writeFileSync(broken, readText('.github/workflows/ci.yml').replace('      - run: npm ci', '      - rnu: npm ci'));
    const result = await runCommand(VALIDATOR, [broken], { cwd: WORKSPACE_ROOT });
    expect(result.exitCode).not.toBe(0);
    expect(`${result.stdout}${result.stderr}`).toContain("Additional property 'rnu' is not allowed");
  });
});

describe('ci.yml', () => {
  const workflow = readWorkflow('ci.yml');
  const steps = stepsOf(workflow);

  it('runs on pull requests and on pushes to main', () => {
    expect(workflow.on.pull_request).toBeDefined();
    expect(workflow.on.push?.branches).toEqual(['main']);
  });

  it('installs every system package .ci/run installs', () => {
    const wanted = aptPackages(readText('.ci/run'));
    expect(wanted).toContain('etcd-server');
    const installed = aptPackages(steps.map((step) => step.run ?? '').join('\n'));
    expect([...wanted].filter((name) => !installed.has(name))).toEqual([]);
  });

  it('runs nx affected against the merge base, with the targets npm test runs, on a pull request', () => {
    const pullRequest = runsOn(steps, 'pull_request');
    expect(pullRequest).toContain('git merge-base "origin/$GITHUB_BASE_REF" HEAD');
    const affected = /nx affected -t ((?:[a-z][a-z-]* )+)--base="\$NX_BASE" --head="\$NX_HEAD"/.exec(pullRequest);
    expect(affected?.[1]?.trim().split(' ')).toEqual(npmTestTargets());
    expect(npmTestTargets()).toEqual(['lint', 'typecheck', 'test', 'build', 'publint']);
  });

  it('runs the design-sync check over the same range and changeset status on a pull request', () => {
    const pullRequest = runsOn(steps, 'pull_request');
    expect(pullRequest).toContain('node packages/eslint-plugin/dist/design-sync.js --base "$NX_BASE" --head "$NX_HEAD"');
    expect(pullRequest).toContain('changeset status --since="origin/$GITHUB_BASE_REF"');
  });

  it('runs everything on a push to main, and nx affected only on pull requests', () => {
    const push = runsOn(steps, 'push');
    expect(push).toContain('npm test');
    expect(push).not.toContain('nx affected');
    expect(readText('package.json')).toContain('node packages/eslint-plugin/dist/design-sync.js');
  });
});

describe('release.yml', () => {
  const workflow = readWorkflow('release.yml');
  const steps = stepsOf(workflow);
  const changesets = steps.find((step) => step.uses?.startsWith('changesets/action@'));
  const config = JSON.parse(readText('.changeset/config.json')) as { access: string; privatePackages: { version: boolean; tag: boolean } };
  const scripts = (JSON.parse(readText('package.json')) as { scripts: Record<string, string> }).scripts;

  it('runs only after CI passed on a push to main, on the commit CI tested', () => {
    const ci = readWorkflow('ci.yml');
    expect(workflow.on).toEqual({ workflow_run: { workflows: [ci.name], types: ['completed'], branches: ['main'] } });
    const job = Object.values(workflow.jobs)[0];
    expect(job?.if).toContain("github.event.workflow_run.conclusion == 'success'");
    expect(job?.if).toContain("github.event.workflow_run.event == 'push'");
    const checkout = steps.find((step) => step.uses?.startsWith('actions/checkout@'));
    expect(checkout?.with?.['ref']).toBe('${{ github.event.workflow_run.head_sha }}');
  });

  it('opens the version pull request and publishes through changesets, with npm provenance', () => {
    expect(changesets?.with?.['version']).toBe('npm run version-packages');
    expect(changesets?.with?.['publish']).toBe('npm run release');
    expect(changesets?.env?.['NPM_CONFIG_PROVENANCE']).toBe('true');
    const job = Object.values(workflow.jobs)[0];
    expect(job?.permissions?.['id-token']).toBe('write');
    expect(scripts['version-packages']).toBe('changeset version && npm install --package-lock-only');
    expect(scripts['release']).toBe('npm run build && changeset publish');
  });

  it('publishes public packages only: changesets neither versions nor tags private ones', () => {
    expect(config.access).toBe('public');
    expect(config.privatePackages).toEqual({ version: false, tag: false });
  });
});

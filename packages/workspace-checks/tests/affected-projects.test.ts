import { existsSync } from 'node:fs';
import { extname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TempClone } from './support/temp-clone.js';
import { readWorkspacePackages, withDependents, type WorkspacePackage } from './support/workspace-packages.js';

// design/workspace-checks.md, "Affected projects": one clone, one commit per touched file, and for each
// commit `nx show projects --affected` against the set these rules give from the packages' own files.

const ESLINT_PLUGIN = '@ipamkit/eslint-plugin';
const WORKSPACE_CHECKS = '@ipamkit/workspace-checks';

/** How one commit's file must reach projects before dependents are added. */
interface TouchCase {
  readonly label: string;
  readonly file: string;
  readonly touches: (packages: readonly WorkspacePackage[]) => Iterable<string>;
}

const names = (packages: readonly WorkspacePackage[], keep: (pkg: WorkspacePackage) => boolean): string[] =>
  packages.filter(keep).map((pkg) => pkg.name);

/** Whose `eslint .` is judged by the root config, and so by the plugin's rules. */
const lintedByRootConfig = (pkg: WorkspacePackage): boolean => pkg.scripts['lint'] !== undefined && !pkg.hasOwnEslintConfig;

/**
 * The dependency edges: what each package.json declares, plus two written rules: a package linted by
 * the root config depends on the eslint plugin (its rules judge that package), and workspace-checks
 * depends on every package (it packs, publishes and graphs all of them).
 */
function dependencyEdges(packages: readonly WorkspacePackage[]): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  for (const pkg of packages) {
    const dependencies = new Set(pkg.workspaceDependencies);
    if (lintedByRootConfig(pkg) && pkg.name !== ESLINT_PLUGIN) dependencies.add(ESLINT_PLUGIN);
    if (pkg.name === WORKSPACE_CHECKS) for (const other of packages) if (other.name !== pkg.name) dependencies.add(other.name);
    edges.set(pkg.name, dependencies);
  }
  return edges;
}

/** A file inside a package: the first of these that exists is edited. */
function packageFile(clone: TempClone, pkg: WorkspacePackage): string {
  const file = ['src/index.ts', 'README.md', 'package.json'].map((candidate) => `${pkg.root}/${candidate}`).find((path) => existsSync(clone.path(path)));
  if (file === undefined) throw new Error(`${pkg.name} has none of the files the test edits`);
  return file;
}

/** The root files and their rules. Every other file outside a package reaches no project. */
const ROOT_CASES: readonly TouchCase[] = [
  {
    label: 'tsconfig.base.json reaches every package whose tsconfig extends it',
    file: 'tsconfig.base.json',
    touches: (packages) => names(packages, (pkg) => pkg.tsconfig?.includes('../../tsconfig.base.json') === true),
  },
  { label: 'eslint.config.mjs reaches every package the root config lints', file: 'eslint.config.mjs', touches: (packages) => names(packages, lintedByRootConfig) },
  {
    label: 'vitest.shared.mts reaches every package whose vitest config imports it',
    file: 'vitest.shared.mts',
    touches: (packages) => names(packages, (pkg) => pkg.vitestConfig?.includes('vitest.shared.mts') === true),
  },
  {
    label: 'tsup.shared.mts reaches every package whose tsup config imports it',
    file: 'tsup.shared.mts',
    touches: (packages) => names(packages, (pkg) => pkg.tsupConfig?.includes('tsup.shared.mts') === true),
  },
  { label: 'nx.json reaches every project', file: 'nx.json', touches: (packages) => names(packages, () => true) },
  { label: 'the root package.json reaches workspace-checks (its scripts are the CI)', file: 'package.json', touches: () => [WORKSPACE_CHECKS] },
  { label: 'the changesets config reaches workspace-checks (the versioning test)', file: '.changeset/config.json', touches: () => [WORKSPACE_CHECKS] },
  { label: 'the CI workflow reaches workspace-checks (the workflow tests)', file: '.github/workflows/ci.yml', touches: () => [WORKSPACE_CHECKS] },
  { label: 'the release workflow reaches workspace-checks (the workflow tests)', file: '.github/workflows/release.yml', touches: () => [WORKSPACE_CHECKS] },
  { label: '.ci/run reaches workspace-checks (the workflow installs what it installs)', file: '.ci/run', touches: () => [WORKSPACE_CHECKS] },
  // The deploy test renders deploy/ and checks ports against the controllers' constants.
  { label: 'deploy/ reaches ipam-datastore (the deploy test)', file: 'deploy/base/kustomization.yaml', touches: () => ['@ipamkit/ipam-datastore'] },
  {
    label: "gc's constants reach gc and ipam-datastore (the deploy test reads them)",
    file: 'packages/gc/src/constants.ts',
    touches: () => ['@ipamkit/gc', '@ipamkit/ipam-datastore'],
  },
  // Design docs are read only by the design-sync check, which CI runs on every change (design/README.md, "CI and release").
  { label: 'a design doc reaches no project', file: 'design/models.md', touches: () => [] },
];

/** Edits a file in a way that changes its content and nothing it means to a build. */
function edit(clone: TempClone, file: string): void {
  const extension = extname(file);
  if (extension === '.json') {
    const json = JSON.parse(clone.read(file)) as Record<string, unknown>;
    clone.write(file, `${JSON.stringify({ ...json, '//': `affected probe of ${file}` }, null, 2)}\n`);
  } else if (['.ts', '.mts', '.mjs', '.js'].includes(extension)) {
    clone.append(file, `\n// affected probe\n`);
  } else if (extension === '.md') {
    clone.append(file, `\nAffected probe.\n`);
  } else {
    clone.append(file, `\n# affected probe\n`);
  }
}

interface Probe {
  readonly label: string;
  readonly file: string;
  readonly before: string;
  readonly after: string;
  readonly expected: string[];
}

let clone: TempClone;
let probes: Probe[] = [];
const observed = new Map<string, string[]>();

async function affectedBetween(before: string, after: string): Promise<string[]> {
  const result = await clone.nx(['show', 'projects', '--affected', `--base=${before}`, `--head=${after}`, '--json']);
  if (result.exitCode !== 0) throw new Error(`nx show projects failed:\n${result.stdout}\n${result.stderr}`);
  return (JSON.parse(result.stdout) as string[]).sort();
}

beforeAll(async () => {
  clone = await TempClone.create('affected');
  const packages = readWorkspacePackages(clone.dir);
  const edges = dependencyEdges(packages);
  const cases: TouchCase[] = [
    ...packages.map((pkg) => ({ label: `a change in ${pkg.name}`, file: packageFile(clone, pkg), touches: () => [pkg.name] })),
    ...ROOT_CASES,
  ];
  for (const touchCase of cases) {
    const before = (await clone.git('rev-parse', 'HEAD')).trim();
    edit(clone, touchCase.file);
    const after = await clone.commit(`probe: ${touchCase.file}`);
    probes.push({ label: touchCase.label, file: touchCase.file, before, after, expected: [...withDependents(touchCase.touches(packages), edges)].sort() });
  }
  // The first query computes the project graph of the final tree; the rest reuse it, a few at a time.
  const [first, ...rest] = probes;
  if (first === undefined) throw new Error('no probes');
  observed.set(first.after, await affectedBetween(first.before, first.after));
  const queue = [...rest];
  const worker = async (): Promise<void> => {
    for (let probe = queue.shift(); probe !== undefined; probe = queue.shift()) observed.set(probe.after, await affectedBetween(probe.before, probe.after));
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
}, 900_000);

afterAll(() => {
  clone.remove();
  probes = [];
});

describe('nx show projects --affected', () => {
  it('probes every package and every root config', () => {
    const files = probes.map((probe) => probe.file);
    for (const pkg of readWorkspacePackages(clone.dir)) expect(files.some((file) => file.startsWith(`${pkg.root}/`))).toBe(true);
    expect(files).toEqual(expect.arrayContaining(['tsconfig.base.json', 'eslint.config.mjs', 'vitest.shared.mts', 'tsup.shared.mts', 'nx.json']));
  });

  it('marks every linted package affected when the eslint plugin changes', () => {
    const probe = probes.find((candidate) => candidate.file.startsWith('packages/eslint-plugin/'));
    const linted = readWorkspacePackages(clone.dir).filter(lintedByRootConfig).map((pkg) => pkg.name);
    expect(linted.length).toBeGreaterThan(5);
    expect(probe === undefined ? [] : observed.get(probe.after)).toEqual(expect.arrayContaining(linted));
  });

  it('marks the packages whose tests use test-utils affected when test-utils changes', () => {
    const probe = probes.find((candidate) => candidate.file.startsWith('packages/test-utils/'));
    const users = readWorkspacePackages(clone.dir)
      .filter((pkg) => pkg.workspaceDependencies.includes('@ipamkit/test-utils'))
      .map((pkg) => pkg.name);
    expect(users).toContain('@ipamkit/ipam-core');
    expect(probe === undefined ? [] : observed.get(probe.after)).toEqual(expect.arrayContaining(users));
  });

  it('equals the set derived from the package.json dependencies and the written rules, for every commit', () => {
    const mismatches = probes
      .map((probe) => ({ label: probe.label, file: probe.file, expected: probe.expected, actual: observed.get(probe.after) }))
      .filter((row) => JSON.stringify(row.expected) !== JSON.stringify(row.actual));
    expect(mismatches).toEqual([]);
  });
});

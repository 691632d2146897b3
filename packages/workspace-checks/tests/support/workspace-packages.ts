import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** What a workspace package declares about itself, read from its files rather than from nx. */
export interface WorkspacePackage {
  readonly name: string;
  /** `packages/<dir>`, relative to the repository root. */
  readonly root: string;
  readonly isPrivate: boolean;
  readonly version: string;
  /** The `@ipamkit/*` packages named in dependencies, devDependencies, peerDependencies or optionalDependencies. */
  readonly workspaceDependencies: readonly string[];
  /** The same, without devDependencies: what a published version of this package pins. */
  readonly runtimeWorkspaceDependencies: readonly string[];
  readonly scripts: Readonly<Record<string, string>>;
  /** Whether `eslint .` in the package finds a config of its own before the root one. */
  readonly hasOwnEslintConfig: boolean;
  readonly vitestConfig: string | undefined;
  readonly tsupConfig: string | undefined;
  readonly tsconfig: string | undefined;
}

interface PackageJson {
  name: string;
  version: string;
  private?: boolean;
  scripts?: Record<string, string>;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}

const DEPENDENCY_FIELDS = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'] as const;

function readOptional(path: string): string | undefined {
  return existsSync(path) ? readFileSync(path, 'utf8') : undefined;
}

function firstExisting(dir: string, names: readonly string[]): string | undefined {
  for (const name of names) {
    const content = readOptional(join(dir, name));
    if (content !== undefined) return content;
  }
  return undefined;
}

/** Every `packages/*` package of the repository at `repoRoot`, sorted by name. */
export function readWorkspacePackages(repoRoot: string): WorkspacePackage[] {
  const packages: WorkspacePackage[] = [];
  for (const dir of readdirSync(join(repoRoot, 'packages')).sort()) {
    const absolute = join(repoRoot, 'packages', dir);
    const manifest = readOptional(join(absolute, 'package.json'));
    if (manifest === undefined) continue;
    const json = JSON.parse(manifest) as PackageJson;
    const workspaceDependencies = new Set<string>();
    const runtimeWorkspaceDependencies = new Set<string>();
    for (const field of DEPENDENCY_FIELDS) {
      for (const dependency of Object.keys(json[field] ?? {})) {
        if (!dependency.startsWith('@ipamkit/')) continue;
        workspaceDependencies.add(dependency);
        if (field !== 'devDependencies') runtimeWorkspaceDependencies.add(dependency);
      }
    }
    packages.push({
      name: json.name,
      root: `packages/${dir}`,
      isPrivate: json.private === true,
      version: json.version,
      workspaceDependencies: [...workspaceDependencies].sort(),
      runtimeWorkspaceDependencies: [...runtimeWorkspaceDependencies].sort(),
      scripts: json.scripts ?? {},
      hasOwnEslintConfig: readdirSync(absolute).some((file) => /^eslint\.config\.[cm]?js$/.test(file)),
      vitestConfig: firstExisting(absolute, ['vitest.config.mts', 'vitest.config.ts']),
      tsupConfig: firstExisting(absolute, ['tsup.config.ts', 'tsup.config.mts']),
      tsconfig: readOptional(join(absolute, 'tsconfig.json')),
    });
  }
  return packages.sort((a, b) => a.name.localeCompare(b.name));
}

/** The seeds plus every package that depends on one of them, directly or through others. */
export function withDependents(seeds: Iterable<string>, dependenciesOf: ReadonlyMap<string, ReadonlySet<string>>): Set<string> {
  const affected = new Set(seeds);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [name, dependencies] of dependenciesOf) {
      if (affected.has(name)) continue;
      if ([...dependencies].some((dependency) => affected.has(dependency))) {
        affected.add(name);
        grew = true;
      }
    }
  }
  return affected;
}

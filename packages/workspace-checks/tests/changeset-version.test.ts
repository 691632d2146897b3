import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runChecked } from './support/run-command.js';
import { TempClone } from './support/temp-clone.js';
import { readWorkspacePackages, withDependents, type WorkspacePackage } from './support/workspace-packages.js';

// design/workspace-checks.md, "Versioning": `changeset version` bumps what .changeset/config.json says.

interface ChangesetConfig {
  fixed: string[][];
  privatePackages: { version: boolean };
}

type Manifest = Record<string, Record<string, string> | undefined>;

const CHANGED = '@ipamkit/models';
const DEPENDENCY_FIELDS = ['dependencies', 'devDependencies', 'peerDependencies', 'optionalDependencies'] as const;

/** `@ipamkit/*`-style globs as changesets reads them in `fixed`. */
const matchesGlob = (name: string, glob: string): boolean =>
  new RegExp(`^${glob.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\/]/g, '\\$&')).join('[^/]*')}$`).test(name);

function bump(version: string, kind: 'minor' | 'patch'): string {
  const [major, minor, patch] = version.split('.').map(Number);
  if (major === undefined || minor === undefined || patch === undefined) throw new Error(`not a version: ${version}`);
  return kind === 'minor' ? `${major}.${minor + 1}.0` : `${major}.${minor}.${patch + 1}`;
}

let clone: TempClone;
let config: ChangesetConfig;
let before: WorkspacePackage[];
const versionsAfter = new Map<string, string>();
const manifestsAfter = new Map<string, Manifest>();

beforeAll(async () => {
  clone = await TempClone.create('changeset-version');
  config = JSON.parse(clone.read('.changeset/config.json')) as ChangesetConfig;
  // Only this test's changeset is pending, so the plan is the config's answer to one minor change.
  for (const file of readdirSync(clone.path('.changeset'))) {
    if (file.endsWith('.md') && file !== 'README.md') rmSync(join(clone.path('.changeset'), file));
  }
  clone.write('.changeset/models-probe.md', `---\n"${CHANGED}": minor\n---\n\nA probe change for the versioning test.\n`);
  await clone.commit('probe: one pending changeset');
  before = readWorkspacePackages(clone.dir);
  await runChecked(process.execPath, [clone.path('node_modules/@changesets/cli/bin.js'), 'version'], { cwd: clone.dir });
  for (const pkg of before) {
    const manifest = JSON.parse(clone.read(`${pkg.root}/package.json`)) as Manifest & { version: string };
    versionsAfter.set(pkg.name, manifest.version);
    manifestsAfter.set(pkg.name, manifest);
  }
}, 300_000);

afterAll(() => {
  clone.remove();
});

/**
 * The config's plan for one minor change: the changed package and every member of a fixed group it
 * is in go to the next minor; a public package whose published version pins a bumped one gets at
 * least a patch; private packages do not move when `privatePackages.version` is false.
 */
function expectedVersions(): Map<string, string> {
  const versioned = before.filter((pkg) => !pkg.isPrivate || config.privatePackages.version);
  const minor = new Set([CHANGED]);
  for (const group of config.fixed) {
    if (!group.some((glob) => matchesGlob(CHANGED, glob))) continue;
    for (const pkg of versioned) if (group.some((glob) => matchesGlob(pkg.name, glob))) minor.add(pkg.name);
  }
  const runtimeEdges = new Map(versioned.map((pkg) => [pkg.name, new Set(pkg.runtimeWorkspaceDependencies)]));
  const patched = withDependents(minor, runtimeEdges);
  return new Map(
    before.map((pkg) => [pkg.name, minor.has(pkg.name) ? bump(pkg.version, 'minor') : patched.has(pkg.name) ? bump(pkg.version, 'patch') : pkg.version]),
  );
}

describe('changeset version with one minor changeset for models', () => {
  it('moves each package to the version the config says', () => {
    const expected = expectedVersions();
    expect(Object.fromEntries(versionsAfter)).toEqual(Object.fromEntries(expected));
    // The config must actually move dependents, or this test proves nothing about them.
    expect([...expected].filter(([name, version]) => name !== CHANGED && version !== before.find((pkg) => pkg.name === name)?.version).length).toBeGreaterThan(0);
  });

  it('leaves private packages where they are', () => {
    const privatePackages = before.filter((pkg) => pkg.isPrivate);
    expect(privatePackages.length).toBeGreaterThan(0);
    for (const pkg of privatePackages) expect(versionsAfter.get(pkg.name)).toBe(pkg.version);
  });

  it('points every internal dependency at the version its workspace package now has', () => {
    const stale: string[] = [];
    for (const [name, manifest] of manifestsAfter) {
      for (const field of DEPENDENCY_FIELDS) {
        for (const [dependency, range] of Object.entries(manifest[field] ?? {})) {
          const now = versionsAfter.get(dependency);
          if (now !== undefined && range !== now) stale.push(`${name} ${field} ${dependency}@${range} (workspace has ${now})`);
        }
      }
    }
    expect(stale).toEqual([]);
  });

  it('writes the change into the changed package changelog', () => {
    const root = before.find((pkg) => pkg.name === CHANGED)?.root ?? '';
    expect(clone.read(`${root}/CHANGELOG.md`)).toContain('A probe change for the versioning test.');
  });
});

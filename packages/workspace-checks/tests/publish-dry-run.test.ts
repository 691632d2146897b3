import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCommand } from './support/run-command.js';
import { WORKSPACE_ROOT } from './support/temp-clone.js';
import { readWorkspacePackages } from './support/workspace-packages.js';

// design/workspace-checks.md, "Publishing": every public package packs and passes `npm publish --dry-run`
// with what changeset publish passes (access public); the nx test target builds every package first.

interface PackedFile {
  path: string;
}

interface Manifest {
  main?: string;
  module?: string;
  types?: string;
  bin?: Record<string, string>;
  exports?: unknown;
}

const packages = readWorkspacePackages(WORKSPACE_ROOT);
const publicPackages = packages.filter((pkg) => !pkg.isPrivate);
const privatePackages = packages.filter((pkg) => pkg.isPrivate);

/** Every file path a manifest's entry points name (main, module, types, bin, every exports leaf). */
function entryPoints(manifest: Manifest): string[] {
  const paths: string[] = [];
  const walk = (value: unknown): void => {
    if (typeof value === 'string') paths.push(value);
    else if (value !== null && typeof value === 'object') for (const child of Object.values(value)) walk(child);
  };
  walk([manifest.main, manifest.module, manifest.types, manifest.bin, manifest.exports].filter((value) => value !== undefined));
  return [...new Set(paths.map((path) => path.replace(/^\.\//, '')))].sort();
}

const publishDryRun = (root: string) =>
  runCommand('npm', ['publish', '--dry-run', '--json', '--access=public', '--ignore-scripts'], { cwd: join(WORKSPACE_ROOT, root), timeoutMs: 120_000 });

// Each run mostly waits on npm's own start-up, so the packages run side by side.
describe.concurrent('npm publish --dry-run', () => {
  it('covers every public package', () => {
    expect(publicPackages.map((pkg) => pkg.name)).toContain('@ipamkit/models');
    expect(publicPackages.map((pkg) => pkg.name)).toContain('@ipamkit/eslint-plugin');
  });

  it.each(publicPackages.map((pkg) => [pkg.name, pkg.root] as const))('%s passes and packs every file its entry points name', async (name, root) => {
    const result = await publishDryRun(root);
    expect(result.exitCode, result.stderr).toBe(0);
    const report = (JSON.parse(result.stdout) as Record<string, { id: string; files: PackedFile[] }>)[name];
    const manifest = JSON.parse(readFileSync(join(WORKSPACE_ROOT, root, 'package.json'), 'utf8')) as Manifest & { version: string };
    expect(report?.id).toBe(`${name}@${manifest.version}`);
    const packed = new Set(report?.files.map((file) => file.path));
    const missing = entryPoints(manifest).filter((path) => !packed.has(path));
    expect(missing).toEqual([]);
    expect([...packed].filter((path) => path.startsWith('src/') || path.startsWith('tests/'))).toEqual([]);
  });

  it.each(privatePackages.map((pkg) => [pkg.name, pkg.root] as const))('%s is private and is never published', async (name, root) => {
    const result = await publishDryRun(root);
    expect(`${result.stdout}${result.stderr}`).toContain(`Skipping workspace ${name}, marked as private`);
    expect(result.stdout).not.toContain(`"id": "${name}@`);
  });
});

import { mkdtempSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'tsup';

const packageRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Bundles source modules of this package (named entries, paths relative to the package root) for
 * a child process to import, into a new directory inside the package, so the bundle resolves
 * `@ipamkit/*` (and their one shared models instance) through the workspace's node_modules. The
 * `.hammer-` prefix keeps it out of git and lint; the caller removes the directory.
 */
export async function bundleSources(name: string, entries: Record<string, string>): Promise<string> {
  const outDir = mkdtempSync(join(packageRoot, `.hammer-${name}-`));
  await build({
    entry: Object.fromEntries(Object.entries(entries).map(([entry, path]) => [entry, join(packageRoot, path)])),
    outDir,
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    dts: false,
    silent: true,
    external: [/^@ipamkit\//],
  });
  return outDir;
}

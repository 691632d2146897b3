import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ApiReportError } from '../errors.js';

/** One public package of the workspace and the declaration file behind each of its entry points. */
export interface PublicPackage {
  /** `@ipamkit/models` */
  name: string;
  /** The folder under `packages/`, e.g. `models`. */
  folder: string;
  dir: string;
  /** Subpath (`.`, `./memory`) → absolute path of its built `.d.ts`. */
  entries: { subpath: string; dts: string }[];
}

/** Every non-private package under `<root>/packages`, sorted by folder. */
export function publicPackages(root: string): PublicPackage[] {
  const packagesDir = join(root, 'packages');
  if (!existsSync(packagesDir)) throw new ApiReportError(`${packagesDir} not found`);
  return readdirSync(packagesDir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && existsSync(join(packagesDir, e.name, 'package.json')))
    .map((e) => e.name)
    .sort()
    .flatMap((folder) => {
      const dir = join(packagesDir, folder);
      const manifest = readManifest(join(dir, 'package.json'));
      if (manifest.private === true) return [];
      return [{ name: manifest.name, folder, dir, entries: typedEntries(manifest, dir) }];
    });
}

interface Manifest {
  name: string;
  private?: unknown;
  exports?: unknown;
}

function readManifest(file: string): Manifest {
  const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (typeof parsed !== 'object' || parsed === null || !('name' in parsed) || typeof parsed.name !== 'string') {
    throw new ApiReportError(`${file}: no package name`);
  }
  return parsed as Manifest;
}

/** The `import.types` (or `types`) file of each subpath export; `./package.json` has none. */
function typedEntries(manifest: Manifest, dir: string): { subpath: string; dts: string }[] {
  const exportsField = manifest.exports;
  if (typeof exportsField !== 'object' || exportsField === null) {
    throw new ApiReportError(`${manifest.name}: package.json has no "exports" map`);
  }
  return Object.entries(exportsField)
    .flatMap(([subpath, target]) => {
      const types = typesOf(target);
      return types === undefined ? [] : [{ subpath, dts: join(dir, types) }];
    })
    .sort((a, b) => (a.subpath < b.subpath ? -1 : a.subpath > b.subpath ? 1 : 0));
}

function typesOf(target: unknown): string | undefined {
  if (typeof target !== 'object' || target === null) return undefined;
  if ('import' in target) return typesOf(target.import);
  return 'types' in target && typeof target.types === 'string' ? target.types : undefined;
}

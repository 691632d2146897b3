import { type DesignEntry } from './design-table.js';

export const CODEOWNERS_PATH = '.github/CODEOWNERS';
export const DEFAULT_OWNER_TEMPLATE = '@ipamkit/{package}';

/** The directory a package's globs live in: `packages/gc/src/**` → `packages/gc/`. */
export function packagePath(entry: DesignEntry): string {
  const first = entry.appliesTo[0] ?? '';
  const pkgDir = /^packages\/[^/*?{]+\//.exec(first);
  if (pkgDir !== null) return pkgDir[0];
  // Outside packages/: the static directory prefix of the glob.
  const staticPart = first.split(/[*?{]/)[0] ?? '';
  return staticPart.slice(0, staticPart.lastIndexOf('/') + 1);
}

function ownersOf(entry: DesignEntry, template: string): string[] {
  return entry.owners.length > 0 ? entry.owners : [template.replace('{package}', entry.package)];
}

/** A CODEOWNERS file with one line per package path and per design doc, generated from the table. */
export function generateCodeowners(entries: DesignEntry[], template = DEFAULT_OWNER_TEMPLATE): string {
  const lines = new Map<string, string[]>();
  const add = (path: string, owners: string[]): void => {
    const existing = lines.get(path) ?? [];
    lines.set(path, [...existing, ...owners.filter((o) => !existing.includes(o))]);
  };
  for (const entry of entries) add(`/${packagePath(entry)}`, ownersOf(entry, template));
  for (const entry of entries) add(`/${entry.designDoc}`, ownersOf(entry, template));
  const body = [...lines].map(([path, owners]) => `${path} ${owners.join(' ')}`);
  return [
    '# Generated from the package table of design/README.md by `ipamkit-design-sync --write-codeowners`.',
    '# Edit the table (or the --owner-template), then regenerate; the design-sync check compares them.',
    '',
    ...body,
    '',
  ].join('\n');
}

function normalizePattern(pattern: string): string {
  return pattern.replace(/^\//, '').replace(/\/\*\*$|\/\*$/, '/').replace(/([^/])$/, '$1/');
}

/** Package paths of the table that no CODEOWNERS line (with at least one owner) covers. */
export function missingOwners(codeowners: string, entries: DesignEntry[]): { package: string; path: string }[] {
  const owned = new Set<string>();
  for (const raw of codeowners.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const [pattern = '', ...owners] = line.split(/\s+/);
    if (owners.length > 0) owned.add(normalizePattern(pattern));
  }
  return entries
    .map((entry) => ({ package: entry.package, path: packagePath(entry) }))
    .filter(({ path }) => !owned.has(path));
}

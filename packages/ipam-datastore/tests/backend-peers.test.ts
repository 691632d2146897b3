import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The backends' client libraries are optional peers of this package (design/ipam-datastore.md,
// "Packaging"); a published package whose bundle can open a backend through it must declare them
// too, or a strict install (pnpm, Yarn PnP) cannot resolve them from its code.
const PACKAGES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

interface PackageJson {
  name: string;
  private?: boolean;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

const read = (dir: string): PackageJson => JSON.parse(readFileSync(path.join(PACKAGES, dir, 'package.json'), 'utf8')) as PackageJson;
const datastore = read('ipam-datastore');
const backends = Object.keys(datastore.peerDependencies ?? {});
/** Every published package that depends on this one at run time: its bundle can open any backend. */
const callers = readdirSync(PACKAGES)
  .map(read)
  .filter((p) => p.private !== true && p.dependencies?.['@ipamkit/ipam-datastore'] !== undefined);

describe('backend client libraries', () => {
  it('are optional peers of ipam-datastore, with the versions the workspace tests pinned', () => {
    expect(backends.sort()).toEqual(['@kubernetes/client-node', 'better-sqlite3', 'etcd3']);
    for (const name of backends) {
      expect(datastore.peerDependenciesMeta?.[name]?.optional, name).toBe(true);
      expect(datastore.peerDependencies?.[name], name).toBe(`^${datastore.devDependencies?.[name] ?? ''}`);
    }
  });

  it('are declared by every published package that loads ipam-datastore: an optional peer with the same range, or a dependency the package always needs', () => {
    expect(callers.map((p) => p.name).sort()).toEqual(['@ipamkit/cli', '@ipamkit/cni', '@ipamkit/gc', '@ipamkit/lb-alloc', '@ipamkit/sim', '@ipamkit/tunnel-alloc']);
    for (const p of callers) {
      for (const name of backends) {
        const what = `${p.name} → ${name}`;
        const pinned = p.dependencies?.[name];
        if (pinned !== undefined) {
          // gc and lb-alloc watch the Kubernetes API whatever the datastore: the client is theirs.
          expect(pinned, what).toBe(datastore.devDependencies?.[name]);
          expect(p.peerDependencies?.[name], what).toBeUndefined();
        } else {
          expect(p.peerDependencies?.[name], what).toBe(datastore.peerDependencies?.[name]);
          expect(p.peerDependenciesMeta?.[name]?.optional, what).toBe(true);
        }
      }
    }
  });
});

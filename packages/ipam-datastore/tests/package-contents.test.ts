import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const PACKAGE_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The files `npm pack` would put in the tarball (design/ipam-datastore.md, "Packaging"). */
function packedFiles(): string[] {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: PACKAGE_DIR, encoding: 'utf8' });
  const [pack] = JSON.parse(out) as { files: { path: string }[] }[];
  if (pack === undefined) throw new Error('npm pack --dry-run printed no package');
  return pack.files.map((f) => f.path);
}

describe('the @ipamkit/ipam-datastore tarball', () => {
  it('ships every manifest the README promises: CRDs and ClusterRoles, both API groups', () => {
    const files = new Set(packedFiles());
    for (const dir of ['crds', 'crds-v3', 'rbac', 'rbac-v3']) {
      const expected = readdirSync(path.join(PACKAGE_DIR, 'manifests', dir)).map((f) => `manifests/${dir}/${f}`);
      expect(expected.length).toBeGreaterThan(0);
      for (const file of expected) expect(files.has(file), file).toBe(true);
    }
    expect(files.has('dist/index.js')).toBe(true);
    expect([...files].filter((f) => f.startsWith('tests/') || f.startsWith('src/'))).toEqual([]);
  });

  it('declares its storage clients as optional peers, so a consumer installs only the backend it uses', () => {
    const pkg = JSON.parse(readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8')) as Record<string, Record<string, unknown> | undefined>;
    const clients = ['@kubernetes/client-node', 'better-sqlite3', 'etcd3'];
    for (const client of clients) {
      expect(pkg.dependencies?.[client], client).toBeUndefined();
      expect(pkg.peerDependencies?.[client], client).toEqual(expect.any(String));
      expect(pkg.peerDependenciesMeta?.[client], client).toEqual({ optional: true });
    }
  });
});

import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * The multi-process children load the BUILT etcd backend (dist/etcd.js, through createDatastore):
 * fail clearly rather than test stale code when src/etcd changed since the last build.
 */
export function assertEtcdDistIsFresh(): void {
  const src = join(PACKAGE_ROOT, 'src', 'etcd');
  const newest = (path: string): number =>
    statSync(path).isDirectory() ? Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name)))) : statSync(path).mtimeMs;
  const newestSource = Math.max(newest(src), statSync(join(PACKAGE_ROOT, 'src', 'create-datastore.ts')).mtimeMs);
  let built = 0;
  try {
    built = Math.min(statSync(join(PACKAGE_ROOT, 'dist', 'etcd.js')).mtimeMs, statSync(join(PACKAGE_ROOT, 'dist', 'etcd.cjs')).mtimeMs);
  } catch {
    // missing: reported below
  }
  if (built < newestSource) {
    throw new Error('dist/etcd.js or dist/etcd.cjs is missing or older than src/etcd: run `npx --no-install tsup` in packages/ipam-datastore first');
  }
}

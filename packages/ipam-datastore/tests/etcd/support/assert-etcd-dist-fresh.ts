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
  const newestSource = Math.max(...readdirSync(src).map((name) => statSync(join(src, name)).mtimeMs));
  let built = 0;
  try {
    built = statSync(join(PACKAGE_ROOT, 'dist', 'etcd.js')).mtimeMs;
  } catch {
    // missing: reported below
  }
  if (built < newestSource) {
    throw new Error('dist/etcd.js is missing or older than src/etcd: run `npx --no-install tsup` in packages/ipam-datastore first');
  }
}

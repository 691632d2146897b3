import { afterEach } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh directory under os.tmpdir() and the function that removes it. */
export function tempDir(prefix: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `ipamkit-${prefix}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

type Cleanup = () => Promise<void> | void;

/**
 * A test's cleanups, run after each test, the last registered first (a handle closes before its
 * directory is removed). Call in a describe block or at a file's top level: it registers the afterEach.
 */
export function cleanupsAfterEach(): { push(...added: Cleanup[]): void; dbPath(prefix: string): string } {
  const cleanups: Cleanup[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });
  return {
    push: (...added) => void cleanups.push(...added),
    /** `ipam.db` in a fresh directory that is removed after the test. */
    dbPath: (prefix) => {
      const tmp = tempDir(prefix);
      cleanups.push(tmp.remove);
      return join(tmp.dir, 'ipam.db');
    },
  };
}

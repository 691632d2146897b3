import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const GOLDEN_DIR = join(dirname(fileURLToPath(import.meta.url)), 'golden');

/**
 * The expected text of a golden file. The files are reviewed by hand; `UPDATE_GOLDEN=1` rewrites
 * them from the current output (then review the diff before committing).
 */
export function golden(name: string, actual: string): string {
  const path = join(GOLDEN_DIR, name);
  if (process.env['UPDATE_GOLDEN'] === '1') {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, actual);
  }
  if (!existsSync(path)) throw new Error(`golden file ${path} is missing: run with UPDATE_GOLDEN=1 and review it`);
  return readFileSync(path, 'utf8');
}

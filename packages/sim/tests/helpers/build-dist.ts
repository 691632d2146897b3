import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

/** Builds dist/ when it is missing or older than src/: the tests fork dist/hammer-worker.js and run dist/bin.js. */
export default function setup(): void {
  const outputs = ['bin.js', 'hammer-worker.js', 'index.js'].map((f) => join(root, 'dist', f));
  const built = outputs.every((p) => existsSync(p)) ? Math.min(...outputs.map((p) => statSync(p).mtimeMs)) : 0;
  if (built > newestSource(join(root, 'src'))) return;
  execFileSync('npx', ['--no-install', 'tsup'], { cwd: root, stdio: 'inherit' });
}

import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const CHILD = fileURLToPath(new URL('./hold-write-lock-child.mjs', import.meta.url));

/** Another process holding the write lock of a SQLite file (see hold-write-lock-child.mjs). */
export interface WriteLockHolder {
  /** Rolls the child's transaction back and waits for it to exit. */
  release(): Promise<void>;
}

/** Starts the child and resolves once it holds `BEGIN IMMEDIATE` on `path`. */
export async function holdWriteLock(path: string): Promise<WriteLockHolder> {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [CHILD, path], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (stdout.includes('locked\n')) resolve();
    });
    child.on('error', reject);
    child.on('close', (code) => reject(new Error(`lock holder exited with ${String(code)} before locking: ${stderr}`)));
  });
  return {
    release: async () => {
      child.stdin.end();
      await exited;
    },
  };
}

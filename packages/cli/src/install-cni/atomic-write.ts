import { randomBytes } from 'node:crypto';
import { chmod, open, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** What one install step did to one file. */
export type FileOutcome = 'written' | 'unchanged';

async function currentContents(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/**
 * Writes `data` to `path` so that no reader ever sees a partial file (design/cli.md, "install-cni"):
 * a temp file in the same directory, flushed, then renamed over the target. A target that already
 * holds exactly `data` is left alone (same inode), which makes a second install a no-op.
 */
export async function writeFileAtomically(path: string, data: Buffer | string, mode: number): Promise<FileOutcome> {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const existing = await currentContents(path);
  if (existing?.equals(bytes) === true) {
    await chmod(path, mode);
    return 'unchanged';
  }
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const handle = await open(temp, 'wx', mode);
    try {
      await handle.writeFile(bytes);
      await handle.chmod(mode);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
  return 'written';
}

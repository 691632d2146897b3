import { statSync } from 'node:fs';
import { AsyncMutex } from '../engine/async-mutex.js';

interface Entry {
  readonly mutex: AsyncMutex;
  handles: number;
}

/**
 * One writer mutex per SQLite file per process (design/ipam-datastore.md, "One writer per file in a
 * process"). Keyed by the file's identity (device and inode), so a symlink, a relative path and the
 * absolute path of one file share it.
 */
const WRITERS = new Map<string, Entry>();

/** A lease on the writer mutex of one open file; `release` is idempotent. */
export interface WriterMutexLease {
  readonly mutex: AsyncMutex;
  release(): void;
}

function fileIdentity(path: string): string {
  // A number is exact up to 2^53, and a larger inode number reads as one above that: only then is the
  // bigint form needed (its first use costs a short-lived call compiling Node's BigIntStats; design/
  // ipam-datastore.md, "One writer per file in a process"). Both forms give the same text.
  const st = statSync(path);
  if (st.ino <= Number.MAX_SAFE_INTEGER && st.dev <= Number.MAX_SAFE_INTEGER) return `${st.dev}:${st.ino}`;
  const exact = statSync(path, { bigint: true });
  return `${exact.dev}:${exact.ino}`;
}

/** Takes a reference on the writer mutex of the (already opened, hence existing) file at `path`. */
export function leaseWriterMutex(path: string): WriterMutexLease {
  const id = fileIdentity(path);
  let entry = WRITERS.get(id);
  if (entry === undefined) {
    entry = { mutex: new AsyncMutex(), handles: 0 };
    WRITERS.set(id, entry);
  }
  entry.handles++;
  const held = entry;
  let released = false;
  return {
    mutex: held.mutex,
    release: () => {
      if (released) return;
      released = true;
      held.handles--;
      if (held.handles === 0 && WRITERS.get(id) === held) WRITERS.delete(id);
    },
  };
}

/** How many files have a writer mutex registered in this process (for tests). */
export function registeredWriterMutexes(): number {
  return WRITERS.size;
}

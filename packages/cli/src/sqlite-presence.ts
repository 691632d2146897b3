import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { DatastoreAccess } from './resources/datastore-access.js';
import { DatastoreMissingError } from './errors.js';

/** Which commands may make a new SQLite file (design/cli.md "Opening the datastore"). */
const CREATORS = 'only create, apply, install-cni and datastore migrate import make a new one';

type Kind = 'file' | 'directory' | 'other' | 'missing';

function kindOf(path: string): Kind {
  try {
    const st = statSync(path);
    return st.isFile() ? 'file' : st.isDirectory() ? 'directory' : 'other';
  } catch {
    return 'missing';
  }
}

/**
 * Checks the SQLite file a command is about to open, before SQLite can create anything: a command
 * that must not create one needs an existing file; one that may needs an existing directory.
 */
export function checkSqlitePresence(path: string, access: DatastoreAccess): void {
  const file = kindOf(path);
  const dir = dirname(path);
  if (file === 'file') return;
  if (file !== 'missing') throw new DatastoreMissingError(`${path} is not a file, so not an ipamkit database (--sqlite-path)`);
  const dirKind = kindOf(dir);
  if (access !== 'may-create') {
    const why = dirKind === 'directory' ? '' : ` (directory ${dir} does not exist)`;
    throw new DatastoreMissingError(`no ipamkit database at ${path}${why}: check --sqlite-path; ${CREATORS}`);
  }
  if (dirKind !== 'directory') throw new DatastoreMissingError(`cannot create the ipamkit database at ${path}: directory ${dir} does not exist (--sqlite-path)`);
}

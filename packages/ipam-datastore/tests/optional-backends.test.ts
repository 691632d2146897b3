import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importBackend } from '../src/create-datastore.js';
import { DatastoreConfigError } from '../src/errors.js';

/**
 * A backend module whose client library is not installed, simulated for real: a module outside
 * every node_modules tree that imports the package, loaded by plain Node (vitest would resolve it
 * from the workspace), so the error is Node's own resolution failure.
 */
function nodeImportError(file: string): Error {
  const script = `import(${JSON.stringify(pathToFileURL(file).href)}).then(() => console.log('{}'), (e) => console.log(JSON.stringify({ code: e.code, message: e.message })))`;
  const { code, message } = JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8', cwd: path.dirname(file) })) as { code?: string; message?: string };
  if (message === undefined) throw new Error(`${file} loaded: the simulation needs the package to be missing`);
  return Object.assign(new Error(message), { code });
}

describe('optional peer backends: a missing client library', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'ipamkit-no-backend-'));
    writeFileSync(path.join(dir, 'sqlite-backend.mjs'), "import Database from 'better-sqlite3';\nexport const createSqliteDatastore = () => new Database(':memory:');\n");
    writeFileSync(path.join(dir, 'broken-backend.mjs'), "import './missing-inner-file.mjs';\n");
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const load = (file: string) => {
    const error = nodeImportError(path.join(dir, file));
    return () => Promise.reject(error);
  };

  it('fails with a DatastoreConfigError that names the package to install', async () => {
    const failure = importBackend('sqlite', 'better-sqlite3', load('sqlite-backend.mjs'));
    await expect(failure).rejects.toBeInstanceOf(DatastoreConfigError);
    await expect(importBackend('sqlite', 'better-sqlite3', load('sqlite-backend.mjs'))).rejects.toThrow(
      'the sqlite datastore needs the package better-sqlite3, which is not installed: add it to your dependencies (npm install better-sqlite3)',
    );
  });

  it('leaves any other failure alone (a missing file inside the backend is not a missing package)', async () => {
    const failure = importBackend('sqlite', 'better-sqlite3', load('broken-backend.mjs'));
    await expect(failure).rejects.not.toBeInstanceOf(DatastoreConfigError);
    await expect(importBackend('sqlite', 'better-sqlite3', load('broken-backend.mjs'))).rejects.toThrow(/missing-inner-file/);
  });

  it('loads an installed backend unchanged', async () => {
    const backend = await importBackend('sqlite', 'better-sqlite3', () => import('../src/sqlite/index.js'));
    expect(typeof backend.createSqliteDatastore).toBe('function');
  });
});

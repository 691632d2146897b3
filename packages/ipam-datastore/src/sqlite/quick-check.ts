import Database from 'better-sqlite3';

/**
 * SQLite's `PRAGMA quick_check` on a file, opened read-only on its own connection
 * (design/ipam-datastore.md, "Integrity check"): the problems SQLite lists, or an empty array when it
 * answers `ok`. A file SQLite cannot even read as a database yields its error as the one problem.
 */
export function sqliteQuickCheck(path: string): string[] {
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    const rows = db.prepare('PRAGMA quick_check').pluck().all();
    const lines = rows.map((row) => String(row));
    return lines.length === 1 && lines[0] === 'ok' ? [] : lines;
  } catch (err) {
    return [err instanceof Error ? err.message : String(err)];
  } finally {
    db?.close();
  }
}

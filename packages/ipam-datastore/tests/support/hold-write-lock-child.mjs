// A child process that holds a SQLite file's write lock, as another CNI invocation in the middle
// of a long write would: BEGIN IMMEDIATE plus one uncommitted change to the revision counter.
// Prints "locked" once it holds the lock; rolls back and exits when its stdin closes.
//
//   node hold-write-lock-child.mjs <path>
import Database from 'better-sqlite3';

const path = process.argv[2];
if (path === undefined) {
  process.stderr.write('usage: hold-write-lock-child.mjs <path>\n');
  process.exit(2);
}
const db = new Database(path, { timeout: 5_000 });
db.exec('BEGIN IMMEDIATE');
db.prepare('UPDATE revision_counter SET value = value + 1000 WHERE id = 0').run();
process.stdout.write('locked\n');
process.stdin.resume();
process.stdin.on('end', () => {
  db.exec('ROLLBACK');
  db.close();
  process.exit(0);
});

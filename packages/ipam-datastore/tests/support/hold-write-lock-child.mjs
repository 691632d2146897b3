// A child process that holds a SQLite file's write lock, as another CNI invocation in the middle
// of a long write would: BEGIN IMMEDIATE plus one uncommitted change-log entry 1,000 revisions on
// (the global revision is the log's highest).
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
db.prepare("INSERT INTO changes (revision, kind, key, type, value, value_revision) SELECT coalesce(max(revision), 0) + 1000, '', '', 'hidden', '', 0 FROM changes").run();
process.stdout.write('locked\n');
process.stdin.resume();
process.stdin.on('end', () => {
  db.exec('ROLLBACK');
  db.close();
  process.exit(0);
});

import type Database from 'better-sqlite3';

/**
 * A connection's statements, each prepared on its first use and kept (design/ipam-datastore.md,
 * "Statements prepared on first use"): preparing parses the SQL, and a plugin call runs a handful
 * of the engine's forty-odd statements.
 */
export class PreparedStatements {
  private readonly prepared = new Map<string, Database.Statement>();

  constructor(private readonly db: Database.Database) {}

  /** The statement of `sql`, prepared once per connection. */
  get<P extends unknown[] = unknown[], R = unknown>(sql: string): Database.Statement<P, R> {
    let statement = this.prepared.get(sql);
    if (statement === undefined) {
      statement = this.db.prepare(sql);
      this.prepared.set(sql, statement);
    }
    // The map holds statements of every shape; each SQL text always comes with the same types.
    return statement as unknown as Database.Statement<P, R>;
  }
}

import { join } from "node:path";
import Database from "better-sqlite3";
import { runDatastoreContract } from "@ipamkit/test-utils";
import { KINDS, isSoftDeleted, type KindName } from "../src/engine/kinds.js";
import { createSqliteDatastore } from "../src/sqlite/index.js";
import { encodeValue } from "../src/sqlite/row-codec.js";
import { TABLES } from "../src/sqlite/schema.js";
import { tempDir } from "./support/temp-dir.js";

// Run twice: as configured by default, and with transaction bodies run without the write lock
// (design/ipam-datastore.md, "Optimistic transactions").
for (const optimisticTransactions of [false, true]) {
  runDatastoreContract(
    optimisticTransactions ? "sqlite (optimistic transactions)" : "sqlite",
    () => {
      const tmp = tempDir("sqlite-contract");
      const path = join(tmp.dir, "ipam.db");
      const datastore = createSqliteDatastore({
        path,
        pollIntervalMs: 20,
        optimisticTransactions,
      });
      return Promise.resolve({
        datastore,
        cleanup: async () => {
          await datastore.close();
          tmp.remove();
        },
        // Written through a second connection, as another process (or an old writer) would.
        injectSoftDeleted: ({ kind, value }) => {
          const k: KindName = kind;
          const v = structuredClone(value) as unknown as Record<
            string,
            unknown
          >;
          const index = KINDS[k].indexOf(v);
          const db = new Database(path);
          try {
            db.transaction(() => {
              // The global revision is the change log's highest: the planted row's revision is logged, unseen by watches.
              const rev = (
                db
                  .prepare(
                    "SELECT coalesce(max(revision), 0) + 1 AS value FROM changes"
                  )
                  .get() as { value: number }
              ).value;
              db.prepare(
                "INSERT INTO changes (revision, kind, key, type, value, value_revision) VALUES (?, '', '', 'hidden', '', 0)"
              ).run(rev);
              db.prepare(
                `INSERT OR REPLACE INTO ${TABLES[k]} (key, revision, deleted, host, type, ip_version, value) VALUES (?, ?, ?, ?, ?, ?, ?)`
              ).run(
                KINDS[k].keyOf(v),
                rev,
                isSoftDeleted(k, v) ? 1 : 0,
                index.host ?? null,
                index.type ?? null,
                index.ipVersion ?? null,
                encodeValue(v)
              );
            }).immediate();
          } finally {
            db.close();
          }
          return Promise.resolve();
        },
      });
    }
  );
}

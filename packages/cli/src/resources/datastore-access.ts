/**
 * How a command may open the datastore (design/cli.md "Opening the datastore"): `may-create` makes a
 * missing SQLite file (create, apply), `must-exist` writes to an existing one only (replace, delete),
 * `read-only` opens an existing one read-only (get).
 */
export type DatastoreAccess = 'may-create' | 'must-exist' | 'read-only';

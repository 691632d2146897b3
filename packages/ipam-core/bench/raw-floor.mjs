// The storage engines' own cost of an allocate + release pair, with none of ipamkit in between
// (design/ipam-core.md, "Allocation cost against the engine"). Each pair is two transactions on one
// block value: read it, JSON.parse it, JSON.stringify it back, write it under a compare on the
// revision read, and insert (allocate) or delete (release) a handle row in the same transaction.
import { Buffer } from 'node:buffer';
import { Agent, request } from 'node:http';
import Database from 'better-sqlite3';

/**
 * better-sqlite3 directly: one file, WAL, synchronous=NORMAL, one prepared statement per step,
 * `BEGIN IMMEDIATE … COMMIT` per transaction (the locking ipam-datastore uses). `key` names this
 * writer's block row.
 */
export function sqliteFloor(path, blockText, { key = 'block', busyTimeoutMs = 5_000 } = {}) {
  const db = new Database(path, { timeout: busyTimeoutMs });
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(`
    CREATE TABLE IF NOT EXISTS blocks (key TEXT PRIMARY KEY, revision INTEGER NOT NULL, value TEXT NOT NULL) WITHOUT ROWID;
    CREATE TABLE IF NOT EXISTS handles (key TEXT PRIMARY KEY, revision INTEGER NOT NULL, value TEXT NOT NULL) WITHOUT ROWID;`);
  // One block row per writer, so that several processes can share the file as hosts share a datastore.
  const cidr = key;
  db.prepare('INSERT OR REPLACE INTO blocks (key, revision, value) VALUES (?, 1, ?)').run(cidr, blockText);
  const read = db.prepare('SELECT revision, value FROM blocks WHERE key = ?');
  const cas = db.prepare('UPDATE blocks SET value = ?, revision = revision + 1 WHERE key = ? AND revision = ?');
  const insertHandle = db.prepare('INSERT INTO handles (key, revision, value) VALUES (?, 1, ?)');
  const deleteHandle = db.prepare('DELETE FROM handles WHERE key = ?');
  const begin = db.prepare('BEGIN IMMEDIATE');
  const commit = db.prepare('COMMIT');
  const rollback = db.prepare('ROLLBACK');
  const transaction = (handleWrite) => {
    begin.run();
    try {
      const row = read.get(cidr);
      const block = JSON.parse(row.value);
      if (cas.run(JSON.stringify(block), cidr, row.revision).changes !== 1) throw new Error('lost the CAS');
      handleWrite();
      commit.run();
    } catch (err) {
      rollback.run();
      throw err;
    }
  };
  let n = 0;
  return {
    async pair() {
      const id = `${cidr}-${n++}`;
      transaction(() => insertHandle.run(id, JSON.stringify({ handleID: id, block: { [cidr]: 1 } })));
      transaction(() => deleteHandle.run(id));
    },
    async close() {
      db.close();
    },
  };
}

const b64 = (text) => Buffer.from(text).toString('base64');

/** One POST to etcd's JSON gateway on a keep-alive socket (ipam-datastore's default `http` client speaks the same). */
function post(agent, endpoint, path, body) {
  const url = new URL(path, endpoint);
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          if (res.statusCode !== 200) reject(new Error(`etcd ${path}: ${res.statusCode} ${text}`));
          else resolve(JSON.parse(text));
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/**
 * Raw etcd txn requests over the JSON gateway: each transaction is ONE `txn` comparing the block
 * key's mod revision with the one this client last wrote (a client that keeps its block, as
 * ipam-datastore's transaction read cache does), putting the re-encoded block and putting or
 * deleting the handle key. A lost compare would throw: the floor has one writer per block.
 */
export async function etcdFloor(endpoint, prefix, blockText) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const blockKey = b64(`${prefix}/block`);
  let text = blockText;
  const created = await post(agent, endpoint, '/v3/kv/txn', { success: [{ request_put: { key: blockKey, value: b64(text) } }] });
  let modRevision = created.header.revision;
  const transaction = async (handleOp) => {
    const block = JSON.parse(text);
    text = JSON.stringify(block);
    const res = await post(agent, endpoint, '/v3/kv/txn', {
      compare: [{ key: blockKey, target: 'MOD', mod_revision: modRevision, result: 'EQUAL' }],
      success: [{ request_put: { key: blockKey, value: b64(text) } }, handleOp],
    });
    if (res.succeeded !== true) throw new Error('lost the compare');
    modRevision = res.header.revision;
  };
  let n = 0;
  return {
    async pair() {
      const id = `floor-${n++}`;
      const handleKey = b64(`${prefix}/handle/${id}`);
      await transaction({ request_put: { key: handleKey, value: b64(JSON.stringify({ handleID: id, block: { x: 1 } })) } });
      await transaction({ request_delete_range: { key: handleKey } });
    },
    async close() {
      agent.destroy();
    },
  };
}

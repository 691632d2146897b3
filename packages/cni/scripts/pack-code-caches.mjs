// Packs the six code caches the training recorded into the one asset the single executable carries,
// dist/sea/calico-ipam.caches, each cache starting on an 8-byte boundary of the executable's memory
// (design/cni.md, "Caches on 8-byte boundaries"). V8 copies a cache it is handed at an address
// that is not a multiple of 8 before it reads it, which a call pays in page faults; an asset
// starts wherever the blob's layout puts it, so the build measures where the pack landed and
// calls this again with that address modulo 8.
//
// Usage: node scripts/pack-code-caches.mjs [<the pack's start modulo 8>]   (default 0)
//
// The layout (read by scripts/sea-loader.cjs): "IPKC", the index's byte length (uint32 LE), the
// index as JSON padded with spaces to INDEX_BYTES ({ "<cache name>": [offset, length] }, offsets
// from the pack's start), then the caches. Its length does not depend on the start, so a second
// pack takes exactly the first one's place in the blob.
import { Buffer } from 'node:buffer';
import fs from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PACK_MAGIC = 'IPKC';
export const PACK_ALIGNMENT = 8;
const INDEX_BYTES = 1024;
const DATASTORES = ['sqlite', 'etcd', 'kubernetes'];
const VERBS = ['add', 'del'];

/** The pack of `caches` (name → bytes) for a pack that will start at an address ≡ `startMod` (mod 8). */
export function packCodeCaches(caches, startMod) {
  if (!Number.isInteger(startMod) || startMod < 0 || startMod >= PACK_ALIGNMENT) throw new Error(`pack-code-caches: the start modulo ${PACK_ALIGNMENT} must be 0 to ${PACK_ALIGNMENT - 1}, not ${startMod}`);
  const entries = Object.entries(caches);
  const index = {};
  let cursor = 8 + INDEX_BYTES;
  for (const [name, bytes] of entries) {
    cursor += (PACK_ALIGNMENT - ((startMod + cursor) % PACK_ALIGNMENT)) % PACK_ALIGNMENT;
    index[name] = [cursor, bytes.length];
    cursor += bytes.length;
  }
  const indexText = JSON.stringify(index);
  if (indexText.length > INDEX_BYTES) throw new Error(`pack-code-caches: the index needs ${indexText.length} bytes, more than ${INDEX_BYTES}`);
  // Room for the largest padding before every cache, whatever the start.
  const total = 8 + INDEX_BYTES + entries.reduce((sum, [, bytes]) => sum + bytes.length + PACK_ALIGNMENT - 1, 0);
  const pack = Buffer.alloc(total);
  pack.write(PACK_MAGIC, 0, 'latin1');
  pack.writeUInt32LE(indexText.length, 4);
  pack.write(indexText.padEnd(INDEX_BYTES, ' '), 8, 'latin1');
  for (const [name, bytes] of entries) bytes.copy(pack, index[name][0]);
  return pack;
}

/** Reads the pack's index: cache name → [offset, length]. */
export function packIndex(pack) {
  if (pack.toString('latin1', 0, 4) !== PACK_MAGIC) throw new Error('pack-code-caches: not a pack of code caches');
  return JSON.parse(pack.toString('latin1', 8, 8 + pack.readUInt32LE(4)));
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const sea = fileURLToPath(new URL('../dist/sea/', import.meta.url));
  const startMod = Number(process.argv[2] ?? 0);
  const caches = {};
  for (const datastore of DATASTORES) {
    for (const verb of VERBS) {
      const name = `calico-ipam.${datastore}.${verb}.cache`;
      caches[name] = fs.readFileSync(join(sea, name));
    }
  }
  fs.writeFileSync(join(sea, 'calico-ipam.caches'), packCodeCaches(caches, startMod));
}

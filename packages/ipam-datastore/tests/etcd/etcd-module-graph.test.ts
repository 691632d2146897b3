import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { withEtcd } from '@ipamkit/test-utils';
import { assertEtcdDistIsFresh } from './support/assert-etcd-dist-fresh.js';

const ETCD_CJS = fileURLToPath(new URL('../../dist/etcd.cjs', import.meta.url));
const ROOT_CJS = fileURLToPath(new URL('../../dist/index.cjs', import.meta.url));

/** Heavy client modules the http path must never load (design/ipam-datastore.md, "etcd clients"). */
const HEAVY = /[\\/]node_modules[\\/](etcd3|@grpc[\\/]grpc-js|protobufjs)[\\/]/;

/**
 * A fresh node process that requires the built CJS etcd module, opens a datastore with `client`,
 * writes and reads one handle, and prints which heavy modules ended up in require.cache.
 */
function childRun(endpoint: string, client: 'http' | 'grpc', entry: 'etcd' | 'root' = 'etcd'): Promise<{ heavy: string[]; handleId: string }> {
  const config = JSON.stringify({ endpoints: [endpoint], prefix: `/graph-${process.pid}-${client}-${entry}`, client });
  const open =
    entry === 'etcd'
      ? `require(${JSON.stringify(ETCD_CJS)}).createEtcdDatastore(${config})`
      : `await require(${JSON.stringify(ROOT_CJS)}).createDatastore({ type: 'etcd', ...${config} })`;
  const script = `
    (async () => {
      const ds = ${open};
      await ds.handles.create({ handleId: 'h', block: {}, deleted: false });
      const got = await ds.handles.get('h');
      await ds.close();
      const heavy = Object.keys(require.cache).filter((p) => ${HEAVY.toString()}.test(p));
      process.stdout.write(JSON.stringify({ heavy: [...new Set(heavy.map((p) => p.match(${HEAVY.toString()})[1]))].sort(), handleId: got.handleId }));
    })().catch((err) => { process.stderr.write(String(err && err.stack || err)); process.exit(1); });
  `;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`child exited ${String(code)}: ${stderr}`));
      else resolve(JSON.parse(stdout) as { heavy: string[]; handleId: string });
    });
  });
}

describe('the built etcd module (dist/etcd.cjs)', () => {
  const etcd = withEtcd();
  beforeAll(() => assertEtcdDistIsFresh());

  it('loads no etcd3, @grpc/grpc-js or protobufjs for a datastore on the http client', { timeout: 30_000 }, async () => {
    const out = await childRun(etcd.endpoint, 'http');
    expect(out).toEqual({ heavy: [], handleId: 'h' });
  });

  it('loads none of them through the root entry (createDatastore) either', { timeout: 30_000 }, async () => {
    const out = await childRun(etcd.endpoint, 'http', 'root');
    expect(out).toEqual({ heavy: [], handleId: 'h' });
  });

  it('loads them only when the grpc client is chosen (the check above can see them)', { timeout: 30_000 }, async () => {
    const out = await childRun(etcd.endpoint, 'grpc');
    expect(out).toEqual({ heavy: ['@grpc/grpc-js', 'etcd3', 'protobufjs'], handleId: 'h' });
  });
});

// Measures a fresh node process that opens the Kubernetes datastore with a token kubeconfig and
// reads one object (design/ipam-datastore.md, "Kubernetes backend: kubeconfig loading").
// Run from packages/ipam-datastore after a build, with NODE_EXTRA_CA_CERTS unset:
//   node tests/kubernetes/measure/open-and-read.mjs [runs]
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startKubeApiServer } from '@ipamkit/test-utils';

const here = path.dirname(fileURLToPath(import.meta.url));
const packageDir = path.resolve(here, '../../..');
const runs = Number(process.argv[2] ?? 15);
const dir = mkdtempSync(path.join(tmpdir(), 'ipamkit-kube-measure-'));
const server = await startKubeApiServer({ crdDirectories: [path.join(packageDir, 'manifests/crds')], initialNamespaces: [] });
const kubeconfig = server.writeKubeconfig(path.join(dir, 'kubeconfig'));
server.inject({ apiVersion: 'crd.projectcalico.org/v1', kind: 'IPPool', metadata: { name: 'pool-a' }, spec: { cidr: '10.0.0.0/16', blockSize: 26 } });

const child = `
const { createKubernetesDatastore } = await import('@ipamkit/ipam-datastore/kubernetes');
const ds = await createKubernetesDatastore({ kubeconfig: process.env.MEASURE_KUBECONFIG });
const pool = await ds.ipPools.get('pool-a');
if (pool.cidr !== '10.0.0.0/16') throw new Error('unexpected pool');
await ds.close();
`;
const env = { ...process.env, MEASURE_KUBECONFIG: kubeconfig };
delete env.NODE_EXTRA_CA_CERTS;

function once(args) {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, args, { cwd: packageDir, env, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`child failed: ${r.stderr}`);
  return ms;
}
// The server runs in this process, so the children are spawned asynchronously-free: spawnSync
// blocks our event loop, hence the server is moved to a worker-free mode by answering from a child.
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const read = [];
const bare = [];
for (let i = 0; i < runs; i += 1) {
  bare.push(once(['-e', '0']));
  read.push(await onceAsync());
}
async function onceAsync() {
  const { spawn } = await import('node:child_process');
  const start = process.hrtime.bigint();
  const p = spawn(process.execPath, ['--input-type=module', '-e', child], { cwd: packageDir, env, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  p.stderr.on('data', (c) => (err += c));
  const code = await new Promise((resolve) => p.on('exit', resolve));
  if (code !== 0) throw new Error(`child failed: ${err}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}
console.log(`runs=${runs} node -e 0 median ${median(bare).toFixed(0)} ms; open+read median ${median(read).toFixed(0)} ms (${(median(read) / median(bare)).toFixed(1)}x)`);
await server.close();
rmSync(dir, { recursive: true, force: true });

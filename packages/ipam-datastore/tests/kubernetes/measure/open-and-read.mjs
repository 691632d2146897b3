// Measures a fresh node process that opens the Kubernetes datastore with a token kubeconfig and
// reads one object (design/ipam-datastore.md, "Kubernetes backend: kubeconfig loading").
// Run from packages/ipam-datastore after a build:  node tests/kubernetes/measure/open-and-read.mjs [runs]
// Three children alternate: `node -e 0`; "before", the path as it was (client-node's KubeConfig loads
// the file and applyToHTTPSOptions signs each request); "after", the path given to the small loader.
// Each child reports its own CPU (user+system); wall time is measured around the spawn.
import { spawn } from 'node:child_process';
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

const report = `const u = process.cpuUsage(); process.stdout.write(String((u.user + u.system) / 1000));`;
const read = (open) => `
const { createKubernetesDatastore } = await import('@ipamkit/ipam-datastore/kubernetes');
const ds = await createKubernetesDatastore({ kubeconfig: ${open} });
const pool = await ds.ipPools.get('pool-a');
if (pool.cidr !== '10.0.0.0/16') throw new Error('unexpected pool');
await ds.close();
${report}`;
const variants = {
  'node -e 0': ['-e', report],
  before: ['--input-type=module', '-e', `const { KubeConfig } = await import('@kubernetes/client-node'); const kc = new KubeConfig(); kc.loadFromFile(process.env.MEASURE_KUBECONFIG);${read('kc')}`],
  after: ['--input-type=module', '-e', read('process.env.MEASURE_KUBECONFIG')],
};
const env = { ...process.env, MEASURE_KUBECONFIG: kubeconfig };
delete env.NODE_EXTRA_CA_CERTS;

// Asynchronous spawns: the API test server answers from this process's event loop.
async function once(args) {
  const start = process.hrtime.bigint();
  const p = spawn(process.execPath, args, { cwd: packageDir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  p.stdout.on('data', (c) => (out += c));
  p.stderr.on('data', (c) => (err += c));
  const code = await new Promise((resolve) => p.on('exit', resolve));
  if (code !== 0) throw new Error(`child failed: ${err}`);
  return { wall: Number(process.hrtime.bigint() - start) / 1e6, cpu: Number(out) };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const samples = Object.fromEntries(Object.keys(variants).map((k) => [k, []]));
for (let i = 0; i < runs; i += 1) for (const [name, args] of Object.entries(variants)) samples[name].push(await once(args));
const base = median(samples['node -e 0'].map((s) => s.wall));
for (const [name, xs] of Object.entries(samples)) {
  const wall = median(xs.map((s) => s.wall));
  console.log(`${name.padEnd(10)} wall median ${wall.toFixed(0)} ms (${(wall / base).toFixed(1)}x node -e 0), CPU median ${median(xs.map((s) => s.cpu)).toFixed(0)} ms`);
}
await server.close();
rmSync(dir, { recursive: true, force: true });

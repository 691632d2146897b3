import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadCrdDirectory, loadManifestDocuments, startKubeApiServer, type KubeApiServer, type OpenApiSchema, type ResourceType } from '@ipamkit/test-utils';
import { CRD_DIR, RBAC_DIR } from './kubernetes/kube-test-server.js';

// deploy/ is the repository's, not this package's; its test lives here because the manifests it
// checks against (CRDs, the RBAC-proven ClusterRoles) are this package's (design/README.md, "deploy/").
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const DEPLOY = path.join(REPO, 'deploy');
/** kubectl from PATH (CI installs Debian's kubernetes-client); IPAMKIT_TEST_KUBECTL picks another. */
const KUBECTL = process.env.IPAMKIT_TEST_KUBECTL ?? 'kubectl';
const NAMESPACE = 'kube-system';

type Json = Record<string, unknown>;
interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string };
  [key: string]: unknown;
}

/** The metrics port each controller serves /healthz and /readyz on, read from its constants. */
function defaultMetricsPort(pkg: string): number {
  const text = readFileSync(path.join(REPO, 'packages', pkg, 'src/constants.ts'), 'utf8');
  const port = /export const DEFAULT_METRICS_PORT = (\d+);/.exec(text)?.[1];
  if (port === undefined) throw new Error(`packages/${pkg}/src/constants.ts has no DEFAULT_METRICS_PORT`);
  return Number(port);
}

/** The workloads' schema the test server enforces: the fields the kubelet cannot run without. */
const CONTAINER: OpenApiSchema = {
  type: 'object',
  required: ['name', 'image'],
  'x-kubernetes-preserve-unknown-fields': true,
  properties: { name: { type: 'string', minLength: 1 }, image: { type: 'string', minLength: 1 }, command: { type: 'array', items: { type: 'string' } }, args: { type: 'array', items: { type: 'string' } } },
};
const POD_TEMPLATE: OpenApiSchema = {
  type: 'object',
  required: ['metadata', 'spec'],
  'x-kubernetes-preserve-unknown-fields': true,
  properties: {
    spec: {
      type: 'object',
      required: ['containers'],
      'x-kubernetes-preserve-unknown-fields': true,
      properties: { serviceAccountName: { type: 'string' }, containers: { type: 'array', minItems: 1, items: CONTAINER }, initContainers: { type: 'array', items: CONTAINER } },
    },
  },
};
const WORKLOAD_SCHEMA: OpenApiSchema = {
  type: 'object',
  'x-kubernetes-preserve-unknown-fields': true,
  properties: { spec: { type: 'object', required: ['selector', 'template'], 'x-kubernetes-preserve-unknown-fields': true, properties: { template: POD_TEMPLATE } } },
};
const OPEN: OpenApiSchema = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };

function kind(group: string, version: string, plural: string, kindName: string, namespaced: boolean, schema: OpenApiSchema = OPEN): ResourceType {
  return { group, version, plural, kind: kindName, namespaced, statusSubresource: false, schema };
}

/** What the test server serves besides the IPAM CRDs and core kinds: the kinds deploy/ creates. */
const DEPLOY_KINDS: readonly ResourceType[] = [
  kind('', 'v1', 'serviceaccounts', 'ServiceAccount', true),
  kind('', 'v1', 'configmaps', 'ConfigMap', true),
  kind('rbac.authorization.k8s.io', 'v1', 'clusterroles', 'ClusterRole', false),
  kind('rbac.authorization.k8s.io', 'v1', 'clusterrolebindings', 'ClusterRoleBinding', false),
  kind('apps', 'v1', 'daemonsets', 'DaemonSet', true, WORKLOAD_SCHEMA),
  kind('apps', 'v1', 'deployments', 'Deployment', true, WORKLOAD_SCHEMA),
  kind('apiextensions.k8s.io', 'v1', 'customresourcedefinitions', 'CustomResourceDefinition', false),
];

/** `kubectl kustomize <dir>`, split into objects. */
function render(dir: string): Manifest[] {
  const text = execFileSync(KUBECTL, ['kustomize', path.join(DEPLOY, dir)], { encoding: 'utf8' });
  const tmp = mkdtempSync(path.join(tmpdir(), 'ipamkit-deploy-'));
  try {
    writeFileSync(path.join(tmp, 'rendered.yaml'), text);
    return loadManifestDocuments(tmp).map((d) => d.document as Manifest);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

function collectionUrl(server: KubeApiServer, m: Manifest): string {
  const type = [...DEPLOY_KINDS, ...loadCrdDirectory(CRD_DIR)].find((t) => t.kind === m.kind && (t.group === '' ? t.version : `${t.group}/${t.version}`) === m.apiVersion);
  if (type === undefined) throw new Error(`the test server does not serve ${m.apiVersion} ${m.kind}`);
  const root = type.group === '' ? `/api/${type.version}` : `/apis/${type.group}/${type.version}`;
  return `${server.url}${root}${type.namespaced ? `/namespaces/${m.metadata.namespace ?? 'default'}` : ''}/${type.plural}`;
}

async function apply(server: KubeApiServer, m: Manifest): Promise<{ status: number; body: string }> {
  const res = await fetch(collectionUrl(server, m), {
    method: 'POST',
    headers: { authorization: `Bearer ${server.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(m),
  });
  return { status: res.status, body: await res.text() };
}

const podSpecOf = (m: Manifest): Json => ((m.spec as Json).template as Json).spec as Json;
const containersOf = (m: Manifest): Json[] => [...((podSpecOf(m).initContainers as Json[] | undefined) ?? []), ...(podSpecOf(m).containers as Json[])];
const isWorkload = (m: Manifest): boolean => m.kind === 'DaemonSet' || m.kind === 'Deployment';

/** The ClusterRoles each workload's account must be bound to: those the RBAC tests prove. */
const ROLES_OF_WORKLOAD: Readonly<Record<string, readonly string[]>> = {
  'ipamkit-node': ['ipamkit-cni', 'ipamkit-tunnel-alloc'],
  'ipamkit-gc': ['ipamkit-gc'],
  'ipamkit-lb-alloc': ['ipamkit-lb-alloc'],
};

describe.each(['base', 'overlays/kubernetes', 'overlays/etcd'])('deploy/%s', (dir) => {
  let objects: Manifest[];
  let server: KubeApiServer;

  beforeAll(async () => {
    objects = render(dir);
    server = await startKubeApiServer({ crdDirectories: [CRD_DIR], resourceTypes: DEPLOY_KINDS });
  });
  afterAll(async () => server.close());

  it('renders with kubectl kustomize and every object is accepted by the API test server, schema-checked', async () => {
    expect(objects.length).toBeGreaterThan(10);
    for (const m of objects) {
      const res = await apply(server, m);
      expect(res.status, `${m.kind} ${m.metadata.name}: ${res.body}`).toBe(201);
    }
  });

  it('every workload runs under a ServiceAccount it renders, bound to exactly the roles the RBAC tests prove', () => {
    const proven = new Map(loadManifestDocuments(RBAC_DIR).map(({ document }) => [(document as Manifest).metadata.name, document as Json]));
    const roles = new Map(objects.filter((m) => m.kind === 'ClusterRole').map((m) => [m.metadata.name, m]));
    const accounts = new Set(objects.filter((m) => m.kind === 'ServiceAccount').map((m) => `${m.metadata.namespace ?? ''}/${m.metadata.name}`));
    const workloads = objects.filter(isWorkload);
    expect(workloads.map((w) => `${w.kind}/${w.metadata.name}`).sort()).toEqual(['DaemonSet/ipamkit-node', 'Deployment/ipamkit-gc', 'Deployment/ipamkit-lb-alloc']);
    for (const w of workloads) {
      const account = podSpecOf(w).serviceAccountName as string;
      expect(accounts.has(`${NAMESPACE}/${account}`), account).toBe(true);
      const bound = objects
        .filter((m) => m.kind === 'ClusterRoleBinding' && ((m.subjects as Json[] | undefined) ?? []).some((s) => s.kind === 'ServiceAccount' && s.name === account && s.namespace === NAMESPACE))
        .map((m) => (m.roleRef as { name: string }).name)
        .sort();
      expect(bound).toEqual([...(ROLES_OF_WORKLOAD[w.metadata.name] ?? [])].sort());
      for (const roleName of bound) {
        // The rendered role is the proven one, rule for rule (kustomize only adds labels).
        expect(roles.get(roleName)?.rules, roleName).toEqual(proven.get(roleName)?.rules);
      }
    }
  });

  it('the controllers probe /healthz and /readyz on the metrics port they serve, leader-elected, non-root with a read-only root', () => {
    for (const [name, pkg] of [['ipamkit-gc', 'gc'], ['ipamkit-lb-alloc', 'lb-alloc']] as const) {
      const deployment = objects.find((m) => m.kind === 'Deployment' && m.metadata.name === name);
      if (deployment === undefined) throw new Error(`${name} is not rendered`);
      const [container] = podSpecOf(deployment).containers as Json[];
      if (container === undefined) throw new Error(`${name} has no container`);
      const port = defaultMetricsPort(pkg);
      expect(container.ports).toEqual([{ name: 'metrics', containerPort: port }]);
      expect(container.args).toEqual(['--leader-elect', '--metrics-port', String(port)]);
      expect((container.livenessProbe as Json).httpGet).toEqual({ path: '/healthz', port: 'metrics' });
      expect((container.readinessProbe as Json).httpGet).toEqual({ path: '/readyz', port: 'metrics' });
      expect(container.securityContext).toMatchObject({ runAsNonRoot: true, readOnlyRootFilesystem: true, allowPrivilegeEscalation: false });
      expect(container.resources).toMatchObject({ requests: { cpu: expect.any(String) as string, memory: expect.any(String) as string }, limits: { memory: expect.any(String) as string } });
    }
  });

  it('the node DaemonSet installs the plugin with install-cni into the host CNI directories, and runs tunnel-alloc', () => {
    const ds = objects.find((m) => m.kind === 'DaemonSet');
    if (ds === undefined) throw new Error('no DaemonSet rendered');
    const [init] = podSpecOf(ds).initContainers as Json[];
    expect(init).toMatchObject({ name: 'install-cni', command: ['/opt/ipamkit/bin/ipamkit', 'install-cni'], args: ['--bin-dir', '/host/opt/cni/bin', '--net-dir', '/host/etc/cni/net.d'] });
    const mounts = new Map(((init?.volumeMounts as Json[] | undefined) ?? []).map((v) => [v.mountPath, v.name]));
    const hostPaths = new Map((podSpecOf(ds).volumes as Json[]).map((v) => [v.name, (v.hostPath as Json | undefined)?.path]));
    expect(hostPaths.get(mounts.get('/host/opt/cni/bin'))).toBe('/opt/cni/bin');
    expect(hostPaths.get(mounts.get('/host/etc/cni/net.d'))).toBe('/etc/cni/net.d');
    expect((podSpecOf(ds).containers as Json[]).map((c) => c.command)).toEqual([['/opt/ipamkit/bin/ipamkit-tunnel-alloc']]);
  });

  it('every container takes its image from the kustomize images: entry', () => {
    const kustomization = loadManifestDocuments(path.join(DEPLOY, 'base')).find((d) => (d.document as Json).kind === 'Kustomization')?.document as { images?: Json[] } | undefined;
    expect(kustomization?.images).toEqual([{ name: 'ipamkit', newName: 'ghcr.io/example/ipamkit', newTag: '0.1.0' }]);
    // The sources name the image only by its kustomize name; the rendering substitutes it.
    const sourceImages = readdirSync(path.join(DEPLOY, 'base'))
      .filter((f) => f.endsWith('.yaml'))
      .flatMap((f) => [...readFileSync(path.join(DEPLOY, 'base', f), 'utf8').matchAll(/^\s*image: (.*)$/gm)].map((m) => m[1]));
    expect(new Set(sourceImages)).toEqual(new Set(['ipamkit']));
    const images = objects.filter(isWorkload).flatMap(containersOf).map((c) => c.image);
    expect(images.length).toBe(4);
    expect(new Set(images)).toEqual(new Set(['ghcr.io/example/ipamkit:0.1.0']));
  });
});

/** What a package's sea.config.json says of its single executable (design/README.md, "Single executables"). */
interface SeaExecutable {
  readonly file: string;
  readonly sqliteAddon: string | undefined;
}

/** Every single executable the packages build, as repository paths: `packages/<pkg>/dist/<name>`. */
function builtExecutables(): SeaExecutable[] {
  return readdirSync(path.join(REPO, 'packages'))
    .filter((pkg) => existsSync(path.join(REPO, 'packages', pkg, 'sea.config.json')))
    .map((pkg) => {
      const config = JSON.parse(readFileSync(path.join(REPO, 'packages', pkg, 'sea.config.json'), 'utf8')) as { name: string; sqliteAddon?: boolean };
      return { file: `packages/${pkg}/dist/${config.name}`, sqliteAddon: config.sqliteAddon === true ? `packages/${pkg}/dist/better_sqlite3.node` : undefined };
    });
}

/** The Dockerfile's COPY instructions: each source and the absolute path it is installed at. */
function dockerfileCopies(): { source: string; installed: string }[] {
  const text = readFileSync(path.join(DEPLOY, 'Dockerfile'), 'utf8');
  return [...text.matchAll(/^COPY\s+(.+)$/gm)].flatMap((m) => {
    const words = (m[1] ?? '').trim().split(/\s+/);
    const destination = words.at(-1) ?? '';
    const sources = words.slice(0, -1);
    if (!destination.endsWith('/') && sources.length !== 1) throw new Error(`COPY of several files into ${destination}, which is not a directory`);
    return sources.map((source) => ({ source, installed: destination.endsWith('/') ? path.posix.join(destination, path.posix.basename(source)) : destination }));
  });
}

describe('deploy/Dockerfile', () => {
  it('copies exactly the single executables the packages build, each beside a SQLite addon when its bundle opens SQLite', () => {
    const executables = builtExecutables();
    const copies = dockerfileCopies();
    expect(executables.map((e) => e.file).sort()).toEqual(['packages/cli/dist/ipamkit', 'packages/cni/dist/calico-ipam', 'packages/gc/dist/ipamkit-gc', 'packages/lb-alloc/dist/ipamkit-lb-alloc', 'packages/tunnel-alloc/dist/ipamkit-tunnel-alloc']);
    const addons = new Set(executables.flatMap((e) => (e.sqliteAddon === undefined ? [] : [e.sqliteAddon])));
    // No source that is not a built executable or its addon: the image holds nothing else.
    for (const { source } of copies) expect(executables.some((e) => e.file === source) || addons.has(source), source).toBe(true);
    for (const executable of executables) {
      const installed = copies.filter((c) => c.source === executable.file).map((c) => c.installed);
      expect(installed, executable.file).toHaveLength(1);
      const [at = ''] = installed;
      expect(path.posix.basename(at)).toBe(path.posix.basename(executable.file));
      if (executable.sqliteAddon !== undefined) {
        expect(copies.some((c) => addons.has(c.source) && c.installed === path.posix.join(path.posix.dirname(at), 'better_sqlite3.node')), `no better_sqlite3.node beside ${at}`).toBe(true);
      }
    }
  });

  it('leaves every executable, its addon and its work files out of its package\'s npm tarball', () => {
    for (const { file, sqliteAddon } of builtExecutables()) {
      const [, pkg = '', , name = ''] = file.split('/');
      const { files } = JSON.parse(readFileSync(path.join(REPO, 'packages', pkg, 'package.json'), 'utf8')) as { files: string[] };
      expect(files, pkg).toEqual(expect.arrayContaining([`!dist/${name}`, '!dist/sea', ...(sqliteAddon === undefined ? [] : ['!dist/better_sqlite3.node'])]));
    }
  });

  it.each(['base', 'overlays/kubernetes', 'overlays/etcd'])('installs every command the rendered %s runs', (dir) => {
    const installed = new Set(dockerfileCopies().map((c) => c.installed));
    const commands = render(dir).filter(isWorkload).flatMap(containersOf).map((c) => (c.command as string[] | undefined)?.[0]);
    expect(commands).toHaveLength(4);
    for (const command of commands) expect(installed.has(command ?? ''), `${String(command)} is not in the image`).toBe(true);
  });
});

describe('deploy/ copies of the package manifests', () => {
  it('the ClusterRoles in deploy/base/rbac are byte-for-byte the proven ones', () => {
    for (const file of readdirSync(path.join(DEPLOY, 'base/rbac'))) {
      expect(readFileSync(path.join(DEPLOY, 'base/rbac', file), 'utf8'), file).toBe(readFileSync(path.join(RBAC_DIR, file), 'utf8'));
    }
  });

  it('the CRDs in the kubernetes overlay are byte-for-byte manifests/crds, all six of them', () => {
    const copies = readdirSync(path.join(DEPLOY, 'overlays/kubernetes/crds')).sort();
    expect(copies).toEqual(readdirSync(CRD_DIR).sort());
    for (const file of copies) expect(readFileSync(path.join(DEPLOY, 'overlays/kubernetes/crds', file), 'utf8'), file).toBe(readFileSync(path.join(CRD_DIR, file), 'utf8'));
  });

  it('a workload the kubelet could not run (a container without an image) is refused by the schema check', async () => {
    const server = await startKubeApiServer({ resourceTypes: DEPLOY_KINDS });
    try {
      const broken = render('overlays/etcd').find((m) => m.kind === 'Deployment');
      if (broken === undefined) throw new Error('no Deployment rendered');
      const [container] = podSpecOf(broken).containers as Json[];
      delete container?.image;
      const res = await apply(server, broken);
      expect(res.status).toBe(422);
      expect(res.body).toContain('image');
    } finally {
      await server.close();
    }
  });

  it('the etcd overlay sets the etcd datastore and ships no CRDs; the kubernetes overlay the Kubernetes one with its CRDs', () => {
    const config = (dir: string) => render(dir).find((m) => m.kind === 'ConfigMap' && m.metadata.name === 'ipamkit-datastore')?.data;
    expect(config('overlays/etcd')).toMatchObject({ DATASTORE_TYPE: 'etcdv3', ETCD_ENDPOINTS: expect.stringMatching(/^https?:\/\//) as string });
    expect(config('overlays/kubernetes')).toEqual({ DATASTORE_TYPE: 'kubernetes' });
    expect(render('overlays/etcd').filter((m) => m.kind === 'CustomResourceDefinition')).toEqual([]);
    expect(render('overlays/kubernetes').filter((m) => m.kind === 'CustomResourceDefinition').map((m) => m.metadata.name).sort()).toHaveLength(6);
  });
});

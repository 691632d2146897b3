import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CORE_RESOURCE_TYPES, loadClusterRole, loadCrdDirectory, loadManifestDocuments, RbacAuthorizer, requestAttributes } from '@ipamkit/test-utils';
import { CRD_DIR, CRD_V3_DIR, RBAC_DIR, RBAC_V3_DIR } from './kube-test-server.js';

interface PolicyRule {
  apiGroups?: string[];
  resources?: string[];
  verbs?: string[];
}
interface ClusterRole {
  kind?: string;
  metadata?: { name?: string; labels?: Record<string, string> };
  rules?: PolicyRule[];
}

const CONSUMERS = ['cli', 'cni', 'gc', 'lb-alloc', 'tunnel-alloc'];
const VERBS = new Set(['get', 'list', 'watch', 'create', 'update', 'patch', 'delete']);
const CORE_SUBRESOURCES = ['services/status', 'nodes/status', 'pods/status'];

describe('CRD manifests', () => {
  it('define the six v1-group IPAM kinds, cluster-scoped, each with a schema', () => {
    const types = loadCrdDirectory(CRD_DIR);
    expect(types.map((t) => `${t.group}/${t.version}/${t.plural}:${t.kind}`).sort()).toEqual([
      'crd.projectcalico.org/v1/blockaffinities:BlockAffinity',
      'crd.projectcalico.org/v1/ipamblocks:IPAMBlock',
      'crd.projectcalico.org/v1/ipamconfigs:IPAMConfig',
      'crd.projectcalico.org/v1/ipamhandles:IPAMHandle',
      'crd.projectcalico.org/v1/ippools:IPPool',
      'crd.projectcalico.org/v1/ipreservations:IPReservation',
    ]);
    expect(types.every((t) => !t.namespaced && t.schema !== undefined)).toBe(true);
  });

  it('carry Calico field types where they matter: int64 sequence numbers, nullable allocations, string affinity deleted', () => {
    const spec = (plural: string) => loadCrdDirectory(CRD_DIR).find((t) => t.plural === plural)?.schema?.properties?.['spec']?.properties;
    expect(spec('ipamblocks')?.['sequenceNumber']).toMatchObject({ type: 'integer', format: 'int64' });
    expect(spec('ipamblocks')?.['sequenceNumberForAllocation']?.additionalProperties).toMatchObject({ type: 'integer', format: 'int64' });
    expect(spec('ipamblocks')?.['allocations']?.items).toEqual({ type: 'integer', nullable: true });
    expect(spec('blockaffinities')?.['deleted']).toMatchObject({ type: 'string' });
    expect(spec('ipamhandles')?.['deleted']).toMatchObject({ type: 'boolean' });
    expect(spec('ipamconfigs')?.['maxBlocksPerHost']).toMatchObject({ minimum: 0, maximum: 2147483647 });
  });
});

describe('v3-group CRD manifests', () => {
  it('define the same kinds in projectcalico.org/v3, the config as IPAMConfiguration', () => {
    expect(loadCrdDirectory(CRD_V3_DIR).map((t) => `${t.group}/${t.version}/${t.plural}:${t.kind}`).sort()).toEqual([
      'projectcalico.org/v3/blockaffinities:BlockAffinity',
      'projectcalico.org/v3/ipamblocks:IPAMBlock',
      'projectcalico.org/v3/ipamconfigurations:IPAMConfiguration',
      'projectcalico.org/v3/ipamhandles:IPAMHandle',
      'projectcalico.org/v3/ippools:IPPool',
      'projectcalico.org/v3/ipreservations:IPReservation',
    ]);
  });
});

const RBAC_MODES = [
  { name: 'v1', rbacDir: RBAC_DIR, crdDir: CRD_DIR, group: 'crd.projectcalico.org' },
  { name: 'v3', rbacDir: RBAC_V3_DIR, crdDir: CRD_V3_DIR, group: 'projectcalico.org' },
];

describe.each(RBAC_MODES)('RBAC manifests ($name group)', ({ rbacDir, crdDir }) => {
  const docs = loadManifestDocuments(rbacDir);
  const crdResources = new Set(loadCrdDirectory(crdDir).map((t) => `${t.group}|${t.plural}`));
  const coreResources = new Set([...CORE_RESOURCE_TYPES.map((t) => `|${t.plural}`), ...CORE_SUBRESOURCES.map((r) => `|${r}`)]);
  // Built-in and add-on kinds the controllers read but we ship no CRD for: leader-election Leases and
  // KubeVirt's VMs (the GC keeps a VM's address while its VMI or VM exists).
  const externalResources = new Set([
    'coordination.k8s.io|leases',
    'kubevirt.io|virtualmachineinstances',
    'kubevirt.io|virtualmachines',
  ]);

  it('hold one ClusterRole per consumer, named after it, whose justified comments parse', () => {
    expect(docs.map((d) => d.file).sort()).toEqual(CONSUMERS.map((c) => `${c}.yaml`));
    for (const d of docs) {
      const role = d.document as ClusterRole;
      const consumer = d.file.replace(/\.yaml$/, '');
      expect({ file: d.file, kind: role.kind, name: role.metadata?.name, component: role.metadata?.labels?.['app.kubernetes.io/component'] }).toEqual({
        file: d.file,
        kind: 'ClusterRole',
        name: `ipamkit-${consumer}`,
        component: consumer,
      });
      expect(loadClusterRole(path.join(rbacDir, d.file)).name).toBe(`ipamkit-${consumer}`);
    }
  });

  it.each(CONSUMERS)('grants %s only known verbs on resources that exist in our CRDs or in core', (consumer) => {
    const role = docs.find((d) => d.file === `${consumer}.yaml`)?.document as ClusterRole;
    const grants = (role.rules ?? []).flatMap((rule) =>
      (rule.apiGroups ?? []).flatMap((group) => (rule.resources ?? []).flatMap((resource) => (rule.verbs ?? []).map((verb) => ({ group, resource, verb })))),
    );
    expect(grants.length).toBeGreaterThan(0);
    const unknown = grants.filter((g) => !VERBS.has(g.verb) || !(crdResources.has(`${g.group}|${g.resource}`) || coreResources.has(`${g.group}|${g.resource}`) || externalResources.has(`${g.group}|${g.resource}`)));
    expect(unknown).toEqual([]);
  });

  it('lets only the tunnel allocator write Nodes, and nobody write Pods or Namespaces', () => {
    const writers = (resource: string) =>
      docs
        .filter((d) => ((d.document as ClusterRole).rules ?? []).some((r) => r.resources?.includes(resource) && r.verbs?.some((v) => ['create', 'update', 'patch', 'delete'].includes(v))))
        .map((d) => d.file);
    expect(writers('nodes')).toEqual(['tunnel-alloc.yaml']);
    expect(writers('pods')).toEqual([]);
    expect(writers('namespaces')).toEqual([]);
  });

  it('lets the tunnel allocator update a whole Node by compare-and-swap but never patch it or its status', () => {
    const authorizer = new RbacAuthorizer(loadClusterRole(path.join(rbacDir, 'tunnel-alloc.yaml')));
    const may = (method: string, p: string) => authorizer.decide(requestAttributes(method, p, new URLSearchParams())).allowed;
    expect([may('PUT', '/api/v1/nodes/n1'), may('PATCH', '/api/v1/nodes/n1'), may('PUT', '/api/v1/nodes/n1/status'), may('DELETE', '/api/v1/nodes/n1')]).toEqual([true, false, false, false]);
  });

  it('let the CNI plugin read KubeVirt VMs and VMIs, pods and namespaces, and write none of them', () => {
    const authorizer = new RbacAuthorizer(loadClusterRole(path.join(rbacDir, 'cni.yaml')));
    const may = (method: string, p: string) => authorizer.decide(requestAttributes(method, p, new URLSearchParams())).allowed;
    expect([
      may('GET', '/apis/kubevirt.io/v1/namespaces/vms/virtualmachineinstances/vm1'),
      may('GET', '/apis/kubevirt.io/v1/namespaces/vms/virtualmachines/vm1'),
      may('GET', '/api/v1/namespaces/default/pods/web'),
      may('GET', '/api/v1/namespaces/default'),
      may('PUT', '/apis/kubevirt.io/v1/namespaces/vms/virtualmachines/vm1'),
      may('PATCH', '/api/v1/namespaces/default/pods/web'),
    ]).toEqual([true, true, true, true, false, false]);
  });
});

describe('v1 and v3 RBAC manifests', () => {
  it('grant the same, but for the group and the config kind\'s plural', () => {
    const normalise = (text: string) =>
      text
        .split('\n')
        .filter((line) => !line.trimStart().startsWith('#'))
        .join('\n')
        .replaceAll('crd.projectcalico.org', 'projectcalico.org')
        .replaceAll('ipamconfigs', 'ipamconfigurations');
    for (const consumer of CONSUMERS) {
      const v1 = readFileSync(path.join(RBAC_DIR, `${consumer}.yaml`), 'utf8');
      const v3 = readFileSync(path.join(RBAC_V3_DIR, `${consumer}.yaml`), 'utf8');
      expect({ consumer, v3: normalise(v3) }).toEqual({ consumer, v3: normalise(v1) });
      expect(v3).not.toContain('crd.projectcalico.org]');
    }
  });
});

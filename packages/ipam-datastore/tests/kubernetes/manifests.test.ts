import { describe, expect, it } from 'vitest';
import { CORE_RESOURCE_TYPES, loadCrdDirectory, loadManifestDocuments } from '@ipamkit/test-utils';
import { CRD_DIR, CRD_V3_DIR, RBAC_DIR } from './kube-test-server.js';

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

describe('RBAC manifests', () => {
  const docs = loadManifestDocuments(RBAC_DIR);
  const crdResources = new Set(loadCrdDirectory(CRD_DIR).map((t) => `${t.group}|${t.plural}`));
  const coreResources = new Set([...CORE_RESOURCE_TYPES.map((t) => `|${t.plural}`), ...CORE_SUBRESOURCES.map((r) => `|${r}`)]);
  // Built-in and add-on kinds the controllers read but we ship no CRD for: leader-election Leases and
  // KubeVirt's VMs (the GC keeps a VM's address while its VMI or VM exists).
  const externalResources = new Set([
    'coordination.k8s.io|leases',
    'kubevirt.io|virtualmachineinstances',
    'kubevirt.io|virtualmachines',
    'kubevirt.io|virtualmachineinstancemigrations',
  ]);

  it('hold one comment-free ClusterRole per consumer, named after it', () => {
    expect(docs.map((d) => d.file).sort()).toEqual(CONSUMERS.map((c) => `${c}.yaml`));
    for (const d of docs) {
      const role = d.document as ClusterRole;
      const consumer = d.file.replace(/\.yaml$/, '');
      expect({ file: d.file, kind: role.kind, name: role.metadata?.name, component: role.metadata?.labels?.['app.kubernetes.io/component'], comments: d.comments }).toEqual({
        file: d.file,
        kind: 'ClusterRole',
        name: `ipamkit-${consumer}`,
        component: consumer,
        comments: false,
      });
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
});

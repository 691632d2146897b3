import { afterEach, describe, expect, it } from 'vitest';
import { ClusterRoleError, parseClusterRole } from '../../src/kube-api-server/cluster-role.js';
import { leastPrivilegeReport } from '../../src/kube-api-server/rbac-authorizer.js';
import { RbacAuthorizer, requestAttributes, startKubeApiServer, type KubeApiServer } from '../../src/index.js';
import { call } from './http-client.js';

const ROLE = `apiVersion: rbac.authorization.k8s.io/v1
kind: ClusterRole
metadata:
  name: test-role
rules:
  # Reads of nodes.
  - apiGroups: [""]
    resources: [nodes]
    verbs: [get, list, watch]
  # justified: update services/status: only on a dual-stack Service
  - apiGroups: [""]
    resources: [services/status]
    verbs: [update, patch]
  - apiGroups: [coordination.k8s.io]
    resources: [leases]
    resourceNames: [ipamkit-gc]
    verbs: [get, update]
  - apiGroups: [coordination.k8s.io]
    resources: [leases]
    verbs: [create]
  - nonResourceURLs: [/healthz]
    verbs: [get]
`;

const q = (query = ''): URLSearchParams => new URLSearchParams(query);

describe('requestAttributes', () => {
  it.each([
    { method: 'GET', path: '/api/v1/nodes/n1', query: '', expected: { kind: 'resource', verb: 'get', group: '', version: 'v1', resource: 'nodes', name: 'n1' } },
    { method: 'GET', path: '/api/v1/nodes', query: 'limit=500', expected: { kind: 'resource', verb: 'list', group: '', version: 'v1', resource: 'nodes' } },
    { method: 'GET', path: '/api/v1/nodes', query: 'watch=1&resourceVersion=5', expected: { kind: 'resource', verb: 'watch', group: '', version: 'v1', resource: 'nodes' } },
    { method: 'GET', path: '/api/v1/watch/pods', query: '', expected: { kind: 'resource', verb: 'watch', group: '', version: 'v1', resource: 'pods' } },
    {
      method: 'GET',
      path: '/api/v1/nodes',
      query: 'watch=true&fieldSelector=metadata.name%3Dn1',
      expected: { kind: 'resource', verb: 'watch', group: '', version: 'v1', resource: 'nodes', name: 'n1' },
    },
    { method: 'POST', path: '/apis/crd.projectcalico.org/v1/ipamblocks', query: '', expected: { kind: 'resource', verb: 'create', group: 'crd.projectcalico.org', version: 'v1', resource: 'ipamblocks' } },
    { method: 'PUT', path: '/apis/projectcalico.org/v3/ipamhandles/h1', query: '', expected: { kind: 'resource', verb: 'update', group: 'projectcalico.org', version: 'v3', resource: 'ipamhandles', name: 'h1' } },
    { method: 'PATCH', path: '/api/v1/nodes/n1/status', query: '', expected: { kind: 'resource', verb: 'patch', group: '', version: 'v1', resource: 'nodes', subresource: 'status', name: 'n1' } },
    { method: 'DELETE', path: '/api/v1/namespaces/ns1/pods/p1', query: '', expected: { kind: 'resource', verb: 'delete', group: '', version: 'v1', resource: 'pods', namespace: 'ns1', name: 'p1' } },
    { method: 'DELETE', path: '/api/v1/namespaces/ns1/pods', query: '', expected: { kind: 'resource', verb: 'deletecollection', group: '', version: 'v1', resource: 'pods', namespace: 'ns1' } },
    { method: 'GET', path: '/api/v1/namespaces/ns1', query: '', expected: { kind: 'resource', verb: 'get', group: '', version: 'v1', resource: 'namespaces', namespace: 'ns1', name: 'ns1' } },
    { method: 'PUT', path: '/api/v1/namespaces/ns1/status', query: '', expected: { kind: 'resource', verb: 'update', group: '', version: 'v1', resource: 'namespaces', subresource: 'status', namespace: 'ns1', name: 'ns1' } },
    { method: 'GET', path: '/api/v1/pods', query: '', expected: { kind: 'resource', verb: 'list', group: '', version: 'v1', resource: 'pods' } },
    { method: 'GET', path: '/version', query: '', expected: { kind: 'non-resource', verb: 'get', path: '/version' } },
    { method: 'GET', path: '/apis', query: '', expected: { kind: 'non-resource', verb: 'get', path: '/apis' } },
  ])('$method $path?$query', ({ method, path, query, expected }) => {
    expect(requestAttributes(method, path, q(query))).toEqual(expected);
  });
});

describe('parseClusterRole', () => {
  it('reads the rules, defaulting absent lists to empty, and the justified comments of each rule', () => {
    const role = parseClusterRole(ROLE);
    expect(role.name).toBe('test-role');
    expect(role.rules[2]).toEqual({ apiGroups: ['coordination.k8s.io'], resources: ['leases'], resourceNames: ['ipamkit-gc'], verbs: ['get', 'update'], nonResourceURLs: [] });
    expect(role.rules[4]).toEqual({ apiGroups: [], resources: [], resourceNames: [], verbs: ['get'], nonResourceURLs: ['/healthz'] });
    expect(role.justifications).toEqual([{ rule: 1, verbs: ['update'], resources: ['services/status'], reason: 'only on a dual-stack Service' }]);
  });

  it('reads a justification written inside the rule or above the first one', () => {
    const role = parseClusterRole(`kind: ClusterRole
metadata: {name: r}
rules:
  # justified: list nodes: the first rule's comment sits on the list
  - apiGroups: [""]
    resources: [nodes]
    verbs: [get, list]
  - apiGroups: [""]
    # justified: get,watch pods: inside the rule
    resources: [pods]
    verbs: [get, watch]
`);
    expect(role.justifications).toEqual([
      { rule: 0, verbs: ['list'], resources: ['nodes'], reason: "the first rule's comment sits on the list" },
      { rule: 1, verbs: ['get', 'watch'], resources: ['pods'], reason: 'inside the rule' },
    ]);
  });

  it.each([
    { case: 'not a ClusterRole', text: 'kind: Role\nrules: []\n', message: 'test.yaml: not a ClusterRole' },
    { case: 'rules not a list', text: 'kind: ClusterRole\nrules: {}\n', message: 'test.yaml: rules must be a list' },
    { case: 'a rule without verbs', text: 'kind: ClusterRole\nrules:\n  - apiGroups: [""]\n    resources: [pods]\n', message: 'test.yaml: rules[0] has no verbs' },
    { case: 'verbs not strings', text: 'kind: ClusterRole\nrules:\n  - apiGroups: [""]\n    resources: [pods]\n    verbs: [1]\n', message: 'rules[0].verbs must be a list of strings' },
    {
      case: 'a justification without a reason',
      text: 'kind: ClusterRole\nrules:\n  # justified: get pods\n  - apiGroups: [""]\n    resources: [pods]\n    verbs: [get]\n',
      message: 'test.yaml: rules[0]: "justified: get pods" is not "justified: <verbs> <resources>: <reason>"',
    },
    {
      case: 'a justification of a grant the rule does not make',
      text: 'kind: ClusterRole\nrules:\n  # justified: list pods: because\n  - apiGroups: [""]\n    resources: [pods]\n    verbs: [get]\n',
      message: 'test.yaml: rules[0] justifies list, which the rule does not grant',
    },
  ])('rejects $case', ({ text, message }) => {
    expect(() => parseClusterRole(text, 'test.yaml')).toThrow(ClusterRoleError);
    expect(() => parseClusterRole(text, 'test.yaml')).toThrow(message);
  });
});

describe('RbacAuthorizer', () => {
  const authorizer = () => new RbacAuthorizer(parseClusterRole(ROLE));
  const allowed = (a: RbacAuthorizer, method: string, path: string, query = '') => a.authorize(requestAttributes(method, path, q(query)), method, path);

  it('allows only what a rule grants: verb, group, resource with subresource, and named objects', () => {
    const a = authorizer();
    expect(allowed(a, 'GET', '/api/v1/nodes/n1')).toBe(true);
    expect(allowed(a, 'GET', '/api/v1/nodes', 'watch=1')).toBe(true);
    expect(allowed(a, 'PATCH', '/api/v1/nodes/n1')).toBe(false);
    // The status subresource is its own resource: granting it grants nothing on the Service itself, and vice versa.
    expect(allowed(a, 'PUT', '/api/v1/namespaces/default/services/web/status')).toBe(true);
    expect(allowed(a, 'PUT', '/api/v1/namespaces/default/services/web')).toBe(false);
    expect(allowed(a, 'PATCH', '/api/v1/nodes/n1/status')).toBe(false);
    // resourceNames: only the named lease, and never a create (which has no name to check).
    expect(allowed(a, 'GET', '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/ipamkit-gc')).toBe(true);
    expect(allowed(a, 'GET', '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/other')).toBe(false);
    expect(allowed(a, 'POST', '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases')).toBe(true);
    // Same resource name, other group.
    expect(allowed(a, 'GET', '/apis/example.io/v1/nodes/n1')).toBe(false);
    expect(allowed(a, 'GET', '/healthz')).toBe(true);
    expect(allowed(a, 'GET', '/version')).toBe(false);
    expect(a.denials.map((d) => `${d.method} ${d.path}`)).toEqual([
      'PATCH /api/v1/nodes/n1',
      'PUT /api/v1/namespaces/default/services/web',
      'PATCH /api/v1/nodes/n1/status',
      'GET /apis/coordination.k8s.io/v1/namespaces/kube-system/leases/other',
      'GET /apis/example.io/v1/nodes/n1',
      'GET /version',
    ]);
  });

  it('honours wildcards in groups, resources, subresources and verbs', () => {
    const a = new RbacAuthorizer(
      parseClusterRole('kind: ClusterRole\nrules:\n  - apiGroups: ["*"]\n    resources: ["*/status"]\n    verbs: [update]\n  - apiGroups: [kubevirt.io]\n    resources: ["*"]\n    verbs: ["*"]\n'),
    );
    expect(allowed(a, 'PUT', '/apis/example.io/v1/widgets/w/status')).toBe(true);
    expect(allowed(a, 'PUT', '/apis/example.io/v1/widgets/w')).toBe(false);
    expect(allowed(a, 'DELETE', '/apis/kubevirt.io/v1/namespaces/vms/virtualmachines/vm1')).toBe(true);
    expect(a.unusedGrants()).toEqual([]);
  });

  it('records the grants used, so the unused ones can be listed', () => {
    const a = authorizer();
    allowed(a, 'GET', '/api/v1/nodes/n1');
    allowed(a, 'GET', '/api/v1/nodes');
    allowed(a, 'PATCH', '/api/v1/namespaces/default/services/web/status');
    allowed(a, 'GET', '/apis/coordination.k8s.io/v1/namespaces/kube-system/leases/ipamkit-gc');
    expect(a.usedGrants()).toEqual([
      { rule: 0, verb: 'get', resource: 'nodes' },
      { rule: 0, verb: 'list', resource: 'nodes' },
      { rule: 1, verb: 'patch', resource: 'services/status' },
      { rule: 2, verb: 'get', resource: 'leases.coordination.k8s.io', resourceName: 'ipamkit-gc' },
    ]);
    expect(a.unusedGrants()).toEqual([
      { rule: 0, verb: 'watch', resource: 'nodes' },
      { rule: 1, verb: 'update', resource: 'services/status' },
      { rule: 2, verb: 'update', resource: 'leases.coordination.k8s.io', resourceName: 'ipamkit-gc' },
      { rule: 3, verb: 'create', resource: 'leases.coordination.k8s.io' },
      { rule: 4, verb: 'get', resource: '/healthz' },
    ]);
  });

  it('credits only the first rule that allows, so a duplicated grant stays unused', () => {
    const a = new RbacAuthorizer(parseClusterRole('kind: ClusterRole\nrules:\n  - apiGroups: [""]\n    resources: [pods]\n    verbs: [get]\n  - apiGroups: [""]\n    resources: [pods, namespaces]\n    verbs: [get]\n'));
    allowed(a, 'GET', '/api/v1/namespaces/ns/pods/p');
    allowed(a, 'GET', '/api/v1/namespaces/ns');
    expect(a.unusedGrants()).toEqual([{ rule: 1, verb: 'get', resource: 'pods' }]);
  });

  it('reports unused grants without a justification, and justifications of grants that were used', () => {
    const a = authorizer();
    allowed(a, 'GET', '/api/v1/nodes/n1');
    allowed(a, 'GET', '/api/v1/nodes');
    allowed(a, 'GET', '/api/v1/nodes', 'watch=true');
    allowed(a, 'PATCH', '/api/v1/namespaces/default/services/web/status');
    allowed(a, 'PUT', '/api/v1/namespaces/default/services/web/status');
    expect(leastPrivilegeReport(a)).toEqual({
      unjustified: ['get leases.coordination.k8s.io "ipamkit-gc"', 'update leases.coordination.k8s.io "ipamkit-gc"', 'create leases.coordination.k8s.io', 'get /healthz'],
      staleJustifications: ['update services/status'],
    });
  });
});

describe('startKubeApiServer with a ClusterRole', () => {
  let server: KubeApiServer;
  afterEach(async () => {
    await server.close();
  });

  it('answers a denied request with the API server\'s 403 Status, before looking at the path', async () => {
    server = await startKubeApiServer({ clusterRole: parseClusterRole(ROLE), userName: 'system:serviceaccount:kube-system:gc' });
    server.inject({ apiVersion: 'v1', kind: 'Node', metadata: { name: 'n1' } });
    expect((await call(server, 'GET', '/api/v1/nodes/n1')).status).toBe(200);
    const patch = await call(server, 'PATCH', '/api/v1/nodes/n1', { metadata: { labels: { a: 'b' } } }, 'application/merge-patch+json');
    expect(patch).toEqual({
      status: 403,
      body: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'nodes "n1" is forbidden: User "system:serviceaccount:kube-system:gc" cannot patch resource "nodes" in API group "" at the cluster scope',
        reason: 'Forbidden',
        details: { name: 'n1', group: '', kind: 'nodes' },
        code: 403,
      },
    });
    const list = await call(server, 'GET', '/api/v1/namespaces/default/pods');
    expect(list.status).toBe(403);
    expect(list.body).toMatchObject({ message: 'pods is forbidden: User "system:serviceaccount:kube-system:gc" cannot list resource "pods" in API group "" in the namespace "default"' });
    // Not served at all, yet forbidden first, as RBAC runs before the handler.
    expect((await call(server, 'GET', '/apis/kubevirt.io/v1/virtualmachines')).status).toBe(403);
    expect(server.readRaw({ group: '', plural: 'nodes', name: 'n1' })?.['metadata']).not.toHaveProperty('labels');
    expect(server.authorizer?.denials.map((d) => d.attributes.verb)).toEqual(['patch', 'list', 'list']);
  });

  it('never checks the admin token, and still refuses an unknown token with 401', async () => {
    server = await startKubeApiServer({ clusterRole: parseClusterRole(ROLE) });
    const admin = await fetch(`${server.url}/api/v1/namespaces/default/pods`, { headers: { authorization: `Bearer ${server.adminToken}` } });
    expect(admin.status).toBe(200);
    const stranger = await fetch(`${server.url}/api/v1/nodes`, { headers: { authorization: 'Bearer nope' } });
    expect(stranger.status).toBe(401);
    expect(server.kubeconfigOptions({ admin: true }).users[0]?.token).toBe(server.adminToken);
    expect(server.kubeconfigOptions().users[0]?.token).toBe(server.token);
    expect(server.authorizer?.denials).toEqual([]);
    expect(server.authorizer?.unusedGrants()).toHaveLength(9);
  });

  it('authorizes nothing without a ClusterRole', async () => {
    server = await startKubeApiServer();
    expect(server.authorizer).toBeUndefined();
    expect((await call(server, 'PATCH', '/api/v1/namespaces/default', { metadata: { labels: { a: 'b' } } }, 'application/merge-patch+json')).status).toBe(200);
  });
});

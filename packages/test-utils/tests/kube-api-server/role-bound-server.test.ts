import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALICO_API_MODES, deniedRequests, failOnDenial, startRoleBoundServer, unjustifiedGrants } from '../../src/index.js';

const WIDGET_CRD = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'widgets.yaml');

const ROLE = `kind: ClusterRole
metadata: {name: ipamkit-widgets}
rules:
  # justified: delete widgets: only when a widget breaks
  - apiGroups: [test.ipamkit.io]
    resources: [widgets]
    verbs: [get, list, delete]
`;

describe('startRoleBoundServer', () => {
  let manifests: string;
  beforeAll(() => {
    manifests = mkdtempSync(path.join(tmpdir(), 'role-bound-'));
    for (const mode of CALICO_API_MODES) {
      mkdirSync(path.join(manifests, mode.crdDir));
      mkdirSync(path.join(manifests, mode.rbacDir));
      writeFileSync(path.join(manifests, mode.crdDir, 'widgets.yaml'), readFileSync(WIDGET_CRD, 'utf8'));
      writeFileSync(path.join(manifests, mode.rbacDir, 'widgets.yaml'), ROLE);
    }
  });
  afterAll(() => {
    rmSync(manifests, { recursive: true, force: true });
  });

  it.each(CALICO_API_MODES)('serves the $name CRDs under the component role, and reports what it refused and left unused', async (mode) => {
    const { server, role } = await startRoleBoundServer({ manifestsDir: manifests, mode, component: 'widgets', options: { initialNamespaces: [] } });
    try {
      expect(role.name).toBe('ipamkit-widgets');
      const widget = JSON.stringify({ apiVersion: 'test.ipamkit.io/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { size: 1 } });
      const as = (token: string, method: string) =>
        fetch(`${server.url}/apis/test.ipamkit.io/v1/widgets`, {
          method,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          ...(method === 'POST' ? { body: widget } : {}),
        });
      expect((await as(server.adminToken, 'POST')).status).toBe(201);
      expect((await as(server.token, 'GET')).status).toBe(200);
      expect(unjustifiedGrants(server)).toEqual({ unjustified: ['get widgets.test.ipamkit.io'], staleJustifications: [] });
      const refused = await as(server.token, 'POST');
      expect(await refused.json()).toMatchObject({ code: 403, message: 'widgets.test.ipamkit.io is forbidden: User "system:serviceaccount:kube-system:ipamkit-widgets" cannot create resource "widgets" in API group "test.ipamkit.io" at the cluster scope' });
      expect(deniedRequests(server)).toEqual(['POST /apis/test.ipamkit.io/v1/widgets (create widgets.test.ipamkit.io)']);
    } finally {
      await server.close();
    }
  });

  it('failOnDenial rejects as soon as a request is refused, naming it, and otherwise passes the result through', async () => {
    const [v1] = CALICO_API_MODES;
    if (v1 === undefined) throw new Error('no v1 mode');
    const { server } = await startRoleBoundServer({ manifestsDir: manifests, mode: v1, component: 'widgets', options: { initialNamespaces: [] } });
    try {
      expect(await failOnDenial(server, Promise.resolve(7))).toBe(7);
      const never = new Promise<never>(() => undefined);
      const watched = expect(failOnDenial(server, never, 10)).rejects.toThrow('the ClusterRole refused: GET /api/v1/nodes (list nodes)');
      await fetch(`${server.url}/api/v1/nodes`, { headers: { authorization: `Bearer ${server.token}` } });
      await watched;
    } finally {
      await server.close();
    }
  });
});

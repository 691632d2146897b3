import { join } from 'node:path';
import { startKubeApiServer, type KubeApiServer } from '@ipamkit/test-utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed, sqliteBackend, type TestBackend } from './helpers/backend.js';
import { cniEnv, netConf } from './helpers/cni-call.js';
import { ARTEFACTS, assertBinBuilt, runBin } from './helpers/spawn-bin.js';

describe.each(ARTEFACTS)('$name reading the pod from the Kubernetes API', (artefact) => {
  let server: KubeApiServer;
  let b: TestBackend;
  beforeAll(async () => {
    assertBinBuilt();
    server = await startKubeApiServer();
    b = await sqliteBackend();
    await seed(b.ds, [
      { name: 'pool-a', cidr: '10.41.0.0/24', blockSize: 26 },
      { name: 'pool-b', cidr: '10.42.0.0/24', blockSize: 26 },
    ]);
    server.inject({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'ns1' } });
    server.inject({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'ns1', annotations: { 'cni.projectcalico.org/ipv4pools': '["pool-b"]' } } });
  });
  afterAll(async () => {
    await server.close();
    await b.close();
  });

  it("takes the pool from the pod's annotation (node:https loaded on demand)", async () => {
    const kubeconfig = server.writeKubeconfig(join(b.dir, 'kubeconfig'));
    const conf = JSON.stringify(netConf(b.confKeys, { policy: { type: 'k8s' }, kubernetes: { kubeconfig } }));
    const env = cniEnv({ command: 'ADD', containerId: 'kube-1', args: 'IgnoreUnknown=1;K8S_POD_NAMESPACE=ns1;K8S_POD_NAME=web' });
    const add = await runBin(env, conf, 60_000, artefact);
    expect(add.code).toBe(0);
    expect((JSON.parse(add.stdout) as { ips: { address: string }[] }).ips).toEqual([{ address: expect.stringMatching(/^10\.42\.0\.\d+\/26$/) as string }]);
  });
});

// The hammer's Kubernetes API server, run as its own process (design/sim.md, "All callers"): the
// test server of @ipamkit/test-utils serving the Calico CRDs and core kinds, with the fault injector
// whose rate the parent sets over IPC.
// eslint-disable-next-line ipamkit/layering -- this process IS the test fixture (the cluster's API server of the all-callers hammer, design/sim.md "All callers"); it is a separate entry of the bin build, never imported by the library, and test-utils stays a devDependency kept external.
import { FaultInjector, startKubeApiServer } from '@ipamkit/test-utils';
import { KUBE_API_ENV, type KubeApiProcessConfig, type KubeApiSetFaultRate, type KubeApiStatus } from './kube-api-protocol.js';

const config = JSON.parse(process.env[KUBE_API_ENV] ?? '{}') as KubeApiProcessConfig;
const faults = new FaultInjector({ rate: config.faultRate, seed: config.seed });
const server = await startKubeApiServer({
  crdDirectories: [config.crdDirectory],
  resourceTypes: [{ group: 'coordination.k8s.io', version: 'v1', plural: 'leases', kind: 'Lease', namespaced: true, statusSubresource: false }],
  bookmarkIntervalMs: 500,
  maxHistory: 100_000,
  initialNamespaces: config.namespaces,
  faults,
  token: config.token,
});
server.writeKubeconfig(config.kubeconfigPath);

const status = (): KubeApiStatus => ({ url: server.url, faultRate: faults.faultRate, injected: { ...faults.injected } });
process.on('message', (msg: KubeApiSetFaultRate) => {
  faults.setRate(msg.faultRate);
  process.send?.(status());
});
process.on('disconnect', () => {
  void server.close().finally(() => process.exit(0));
});
process.send?.(status());

// The Kubernetes API test server in a process of its own, so the bench's calls meet a server that
// does not share the bench's event loop (the bench measures calls; the server is the cluster's).
// Started by backends.mjs with fork(): writes the kubeconfig to argv[2], says `ready`, then applies
// each `{ id, inject }` message and answers `{ id }`; exits when the bench disconnects.
import { fileURLToPath } from 'node:url';
import { startKubeApiServer } from '@ipamkit/test-utils';

const CRD_DIR = fileURLToPath(new URL('../../ipam-datastore/manifests/crds', import.meta.url));
const kubeconfigPath = process.argv[2];
if (kubeconfigPath === undefined || process.send === undefined) throw new Error('usage: fork(kube-api-server-process.mjs, [kubeconfig path])');

const server = await startKubeApiServer({ crdDirectories: [CRD_DIR] });
server.writeKubeconfig(kubeconfigPath);
process.on('message', (message) => {
  server.inject(message.inject);
  process.send({ id: message.id });
});
process.on('disconnect', () => {
  void server.close().then(() => process.exit(0));
});
process.send({ ready: true });

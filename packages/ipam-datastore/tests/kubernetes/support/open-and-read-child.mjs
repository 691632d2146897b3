// A fresh process as a plugin call would be: open the built Kubernetes datastore with the kubeconfig
// in IPAMKIT_TEST_KUBECONFIG, read one IPPool, print its CIDR and the CommonJS modules loaded.
import { createRequire } from 'node:module';
import { createKubernetesDatastore } from '@ipamkit/ipam-datastore/kubernetes';

const ds = await createKubernetesDatastore({ kubeconfig: process.env.IPAMKIT_TEST_KUBECONFIG });
const pool = await ds.ipPools.get(process.env.IPAMKIT_TEST_POOL ?? '');
await ds.close();
const require = createRequire(import.meta.url);
process.stdout.write(JSON.stringify({ cidr: pool.cidr, requireCache: Object.keys(require.cache) }));

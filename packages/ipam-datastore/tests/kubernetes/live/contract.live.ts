import { encodeV1, NotFoundError, type Datastore, type Model, type ResourceStore, type WireKind } from '@ipamkit/models';
import { runDatastoreContract, type SoftDeletedRow } from '@ipamkit/test-utils';
import { createKubernetesDatastore } from '../../../src/kubernetes/index.js';
import { KubeCollection, type RawObject } from '../../../src/kubernetes/kube-collection.js';
import { kubeAccessFor } from '../../../src/kubernetes/kube-access-for.js';
import { KubeTransport } from '../../../src/kubernetes/kube-transport.js';

// The contract suite against a real cluster with our CRDs installed. It deletes every IPAM object
// of the v1 group and the suite's own Nodes and Namespaces before each test: use a throwaway cluster.
const kubeconfigPath = process.env['IPAMKIT_LIVE_KUBECONFIG'];
if (kubeconfigPath === undefined || kubeconfigPath === '') {
  throw new Error(
    'IPAMKIT_LIVE_KUBECONFIG is not set: point it at the kubeconfig of a disposable cluster that has packages/ipam-datastore/manifests/crds applied, e.g. IPAMKIT_LIVE_KUBECONFIG=~/.kube/kind npm run test:live -w @ipamkit/ipam-datastore',
  );
}

const transport = new KubeTransport(await kubeAccessFor(kubeconfigPath));
const IPAM_PLURALS = ['ipamblocks', 'blockaffinities', 'ipamhandles', 'ipamconfigs', 'ippools', 'ipreservations'];
const crd = (plural: string): KubeCollection => new KubeCollection(transport, { apiVersion: 'crd.projectcalico.org/v1', plural });
const CONTRACT_NODES = ['node-a', 'node-b'];
const CONTRACT_NAMESPACES = ['ns-a', 'ns-b'];
const KIND: Record<SoftDeletedRow['kind'], { kind: WireKind; plural: string }> = {
  block: { kind: 'IPAMBlock', plural: 'ipamblocks' },
  affinity: { kind: 'BlockAffinity', plural: 'blockaffinities' },
  handle: { kind: 'IPAMHandle', plural: 'ipamhandles' },
};

async function removeAndWait(collection: KubeCollection, name: string): Promise<void> {
  const ignoreMissing = (err: unknown): void => {
    if (!(err instanceof NotFoundError)) throw err;
  };
  await collection.remove(name).catch(ignoreMissing);
  // Namespaces terminate asynchronously; the next test may create the same name.
  for (let i = 0; i < 120; i += 1) {
    try {
      await collection.get(name);
    } catch (err) {
      ignoreMissing(err);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${collection.ref.plural}/${name} was not deleted within 60 s`);
}

async function wipe(): Promise<void> {
  for (const plural of IPAM_PLURALS) {
    const { items } = await crd(plural).list();
    for (const item of items) await removeAndWait(crd(plural), item.metadata?.name ?? '');
  }
  const nodes = new KubeCollection(transport, { apiVersion: 'v1', plural: 'nodes' });
  for (const name of CONTRACT_NODES) await removeAndWait(nodes, name);
  const namespaces = new KubeCollection(transport, { apiVersion: 'v1', plural: 'namespaces' });
  for (const name of CONTRACT_NAMESPACES) await removeAndWait(namespaces, name);
}

/**
 * A real cluster has Nodes and Namespaces of its own (the suite expects an empty store): the
 * suite sees only the names that did not exist before the run.
 */
function hidingPreexisting<T extends { name: string }>(store: ResourceStore<T>, preexisting: ReadonlySet<string>): ResourceStore<T> {
  const mine = <R extends { name: string }>(rows: R[]): R[] => rows.filter((r) => !preexisting.has(r.name));
  return {
    ...store,
    list: async () => mine(await store.list()),
    listWithRevision: async () => {
      const { items, revision } = await store.listWithRevision();
      return { items: mine(items), revision };
    },
  };
}

let preexisting: { nodes: Set<string>; namespaces: Set<string> } | undefined;

async function withoutClusterObjects(datastore: Datastore): Promise<Datastore> {
  preexisting ??= {
    nodes: new Set((await datastore.nodes.list()).map((n) => n.name).filter((n) => !CONTRACT_NODES.includes(n))),
    namespaces: new Set((await datastore.namespaces.list()).map((n) => n.name).filter((n) => !CONTRACT_NAMESPACES.includes(n))),
  };
  return { ...datastore, nodes: hidingPreexisting(datastore.nodes, preexisting.nodes), namespaces: hidingPreexisting(datastore.namespaces, preexisting.namespaces) };
}

runDatastoreContract(
  `kubernetes (live cluster ${transport.server})`,
  async () => {
    await wipe();
    const datastore = await createKubernetesDatastore({ kubeconfig: kubeconfigPath });
    return {
      datastore: await withoutClusterObjects(datastore),
      cleanup: async () => {
        await datastore.close();
        await wipe();
      },
      injectSoftDeleted: async (row) => {
        const { kind, plural } = KIND[row.kind];
        await crd(plural).create(encodeV1(kind, row.value as Model) as unknown as RawObject);
      },
    };
  },
  { transact: false, paging: false, watchTimeoutMs: 60_000 },
);

import { createDatastore, datastoreSecrets, redactSecrets, resolveDatastoreConfig } from '@ipamkit/ipam-datastore';
import { type BinIo, stringFlag } from '@ipamkit/models';
import packageJson from '../package.json' with { type: 'json' };
import { parseDuration, runControllerMain } from '@ipamkit/kube-runtime';
import { DEFAULT_METRICS_PORT } from './constants.js';
import { GcController } from './controller/gc-controller.js';

const USAGE = `ipamkit-gc: the ipamkit IPAM garbage collector

Usage: ipamkit-gc [--leak-grace-period 15m] [--metrics-port 9094] [--leader-elect] [--lease-duration 15s] [--verbose]

The datastore comes from DATASTORE_TYPE and its companions (as every ipamkit tool); pods and nodes
from the Kubernetes API (KUBECONFIG, or in-cluster). Environment: IPAMKIT_GC_LEAK_GRACE_PERIOD
("unset" disables live-node candidates), IPAMKIT_GC_METRICS_PORT (-1 disables), POD_NAMESPACE,
POD_NAME. Leader election on a Lease is on when running in a cluster or with --leader-elect.
/healthz answers 200 until shutdown, /readyz once the first full sync is done; SIGTERM releases the
Lease and exits 0 (design/kube-runtime.md "Bin runner").`;

// Loaded on first use only, so that --help and a bad flag never load the Kubernetes client.
const kubernetes = async (kubeconfig: string | undefined) => (await import('./cluster-view/kubernetes/index.js')).kubernetesRuntime(kubeconfig);
let kube: ReturnType<typeof kubernetes> | undefined;

/** The `ipamkit-gc` bin's main (design/models.md, "Bins"): the answer of the controller runner. */
export function main(argv: readonly string[], io: BinIo): Promise<number> {
  /** The secret values this process holds, read once at start (the kubeconfig is not re-read per line). */
  const knownSecrets = datastoreSecrets(io.env);
  return runControllerMain({
    name: 'ipamkit-gc',
    usage: USAGE,
    version: packageJson.version,
    flags: { 'leak-grace-period': { type: 'string' } },
    defaultMetricsPort: DEFAULT_METRICS_PORT,
    metricsPortEnv: 'IPAMKIT_GC_METRICS_PORT',
    configure: (values, env) => {
      const graceText = stringFlag(values, 'leak-grace-period') ?? env['IPAMKIT_GC_LEAK_GRACE_PERIOD'] ?? '15m';
      // Resolved before anything starts, so a bad setting fails fast (design/gc.md, "Datastore configuration").
      return { leakGracePeriodMs: graceText === 'unset' ? null : parseDuration(graceText), datastoreConfig: resolveDatastoreConfig(env) };
    },
    createElector: async (lease, env) => (await (kube ??= kubernetes(env['KUBECONFIG']))).createElector(lease),
    start: async ({ leakGracePeriodMs, datastoreConfig }, { env, log, registry }) => {
      const runtime = await (kube ??= kubernetes(env['KUBECONFIG']));
      const datastore = await createDatastore(datastoreConfig);
      const view = runtime.createView({ onError: (what, err) => log.warn('watch failed', { what, error: String(err) }) });
      let gc: GcController | undefined;
      const stopping = new AbortController();
      const synced = (async () => {
        await view.start();
        if (stopping.signal.aborted) return;
        gc = new GcController({ datastore, view, leakGracePeriodMs, registry, logger: log });
        await gc.start();
      })();
      return {
        synced,
        stop: async () => {
          stopping.abort();
          await gc?.stop();
          await view.stop();
          await datastore.close();
        },
      };
    },
    runningMessage: 'garbage collector running',
    runningFields: ({ leakGracePeriodMs }) => ({ leakGracePeriodMs }),
    // Every line this bin prints goes through here: client errors may quote credentials.
    redact: (text) => redactSecrets(text, knownSecrets),
  }, argv, io);
}

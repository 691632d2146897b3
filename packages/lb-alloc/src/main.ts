import { createDatastore, datastoreSecrets, redactSecrets, resolveDatastoreConfig } from '@ipamkit/ipam-datastore';
import { type BinIo, stringFlag } from '@ipamkit/models';
import packageJson from '../package.json' with { type: 'json' };
import { runControllerMain } from '@ipamkit/kube-runtime';
import { DEFAULT_METRICS_PORT, FULL_SYNC_INTERVAL_MS } from './constants.js';
import { LbController } from './controller/lb-controller.js';
import { LbConfigError } from './errors.js';

const USAGE = `ipamkit-lb-alloc: assigns addresses from LoadBalancer IP pools to type: LoadBalancer Services

Usage: ipamkit-lb-alloc [--assign-ips AllServices|RequestedServicesOnly] [--full-sync-interval-seconds 300]
                        [--metrics-port 9095] [--leader-elect] [--lease-duration 15s] [--verbose]

The datastore comes from DATASTORE_TYPE and its companions (as every ipamkit tool); Services and
Namespaces from the Kubernetes API (KUBECONFIG, or in-cluster). Environment: IPAMKIT_LB_ASSIGN_IPS,
IPAMKIT_LB_METRICS_PORT (-1 disables), POD_NAMESPACE, POD_NAME. Leader election on the Lease
ipamkit-lb-alloc is on in a cluster or with --leader-elect; otherwise run one instance per cluster.
/healthz answers 200 until shutdown, /readyz once Services and Namespaces are listed; SIGTERM
releases the Lease and exits 0 (design/kube-runtime.md "Bin runner").`;

function positiveNumber(text: string, what: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) throw new LbConfigError(`invalid ${what}: ${text}`);
  return value;
}

// Loaded on first use only, so that --help and a bad flag never load the Kubernetes client.
const kubernetes = () => import('./cluster-view/kubernetes/index.js');

/** The `ipamkit-lb-alloc` bin's main (design/models.md, "Bins"): the answer of the controller runner. */
export function main(argv: readonly string[], io: BinIo): Promise<number> {
  /** The secret values this process holds, read once at start (the kubeconfig is not re-read per line). */
  const knownSecrets = datastoreSecrets(io.env);
  return runControllerMain({
    name: 'ipamkit-lb-alloc',
    usage: USAGE,
    version: packageJson.version,
    flags: { 'assign-ips': { type: 'string' }, 'full-sync-interval-seconds': { type: 'string' } },
    defaultMetricsPort: DEFAULT_METRICS_PORT,
    metricsPortEnv: 'IPAMKIT_LB_METRICS_PORT',
    configure: (values, env) => {
      const intervalText = stringFlag(values, 'full-sync-interval-seconds');
      return {
        assignIPs: stringFlag(values, 'assign-ips') ?? env['IPAMKIT_LB_ASSIGN_IPS'] ?? 'AllServices',
        fullSyncIntervalMs: intervalText === undefined ? FULL_SYNC_INTERVAL_MS : positiveNumber(intervalText, 'full sync interval') * 1000,
        // Resolved before anything starts, so a bad setting fails fast (design/lb-alloc.md, "Datastore configuration").
        datastoreConfig: resolveDatastoreConfig(env),
      };
    },
    createElector: async (lease, env) => (await kubernetes()).createLeaseLeaderElector(env['KUBECONFIG'], lease),
    start: async ({ assignIPs, fullSyncIntervalMs, datastoreConfig }, { env, log, registry }) => {
      const view = (await kubernetes()).createInformerLbClusterView(env['KUBECONFIG'], { onError: (what, err) => log.warn('watch failed', { what, error: String(err) }) });
      const datastore = await createDatastore(datastoreConfig);
      const controller = new LbController({ datastore, view, assignIPs, fullSyncIntervalMs, registry, logger: log });
      const stopping = new AbortController();
      const synced = (async () => {
        await view.start();
        if (!stopping.signal.aborted) await controller.start();
      })();
      return {
        synced,
        stop: async () => {
          stopping.abort();
          await controller.stop();
          await view.stop();
          await datastore.close();
        },
      };
    },
    runningMessage: 'load balancer controller running',
    runningFields: ({ assignIPs, fullSyncIntervalMs }) => ({ assignIPs, fullSyncIntervalMs }),
    // Every line this bin prints goes through here: client errors may quote credentials.
    redact: (text) => redactSecrets(text, knownSecrets),
  }, argv, io);
}

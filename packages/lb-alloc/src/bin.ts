import { hostname } from 'node:os';
import { parseArgs } from 'node:util';
import { createDatastore, datastoreSecrets, redactSecrets } from '@ipamkit/ipam-datastore';
import { register } from 'prom-client';
import { lbDatastoreConfig } from './datastore-config.js';
import { DEFAULT_METRICS_PORT, FULL_SYNC_INTERVAL_MS } from './constants.js';
import { LbController } from './controller/lb-controller.js';
import { LbConfigError } from './errors.js';
import { stderrLogger } from './logger.js';
import { startMetricsServer } from './metrics/metrics-server.js';

const USAGE = `ipamkit-lb-alloc: assigns addresses from LoadBalancer IP pools to type: LoadBalancer Services

Usage: ipamkit-lb-alloc [--assign-ips AllServices|RequestedServicesOnly] [--full-sync-interval-seconds 300]
                        [--metrics-port 9095] [--leader-elect] [--verbose]

The datastore comes from DATASTORE_TYPE and its companions (as every ipamkit tool); Services and
Namespaces from the Kubernetes API (KUBECONFIG, or in-cluster). Environment: IPAMKIT_LB_ASSIGN_IPS,
IPAMKIT_LB_METRICS_PORT (-1 disables), POD_NAMESPACE, POD_NAME. Leader election on the Lease
ipamkit-lb-alloc is on in a cluster or with --leader-elect; otherwise run one instance per cluster.`;

function positiveNumber(text: string, what: string): number {
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0) throw new LbConfigError(`invalid ${what}: ${text}`);
  return value;
}

/** The secret values this process holds, read once at start (the kubeconfig is not re-read per line). */
const knownSecrets = datastoreSecrets(process.env);

/** Every line this bin prints goes through here: client errors may quote credentials. */
function redactForOutput(text: string): string {
  return redactSecrets(text, knownSecrets);
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      'assign-ips': { type: 'string' },
      'full-sync-interval-seconds': { type: 'string' },
      'metrics-port': { type: 'string' },
      'leader-elect': { type: 'boolean' },
      verbose: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help === true) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const env = process.env;
  const log = stderrLogger(values.verbose === true, redactForOutput);
  // Resolved before anything starts, so a bad setting fails fast (design/lb-alloc.md, "Datastore configuration").
  const datastoreConfig = lbDatastoreConfig(env);
  const assignIPs = values['assign-ips'] ?? env['IPAMKIT_LB_ASSIGN_IPS'] ?? 'AllServices';
  const intervalText = values['full-sync-interval-seconds'];
  const fullSyncIntervalMs = intervalText === undefined ? FULL_SYNC_INTERVAL_MS : positiveNumber(intervalText, 'full sync interval') * 1000;
  const metricsPort = Number(values['metrics-port'] ?? env['IPAMKIT_LB_METRICS_PORT'] ?? DEFAULT_METRICS_PORT);
  if (!Number.isInteger(metricsPort)) throw new LbConfigError(`invalid metrics port: ${String(metricsPort)}`);

  const inCluster = (env['KUBERNETES_SERVICE_HOST'] ?? '') !== '';
  const leaderElect = values['leader-elect'] === true || inCluster;
  const stop = new AbortController();
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => stop.abort());
  const kube = await import('./cluster-view/kubernetes/index.js');
  const metrics = metricsPort < 0 ? undefined : await startMetricsServer({ registry: register, port: metricsPort, healthy: () => !stop.signal.aborted });
  if (metrics !== undefined) log.info('metrics listening', { port: metrics.port });
  const elector = leaderElect
    ? kube.createLeaseLeaderElector(env['KUBECONFIG'], { namespace: env['POD_NAMESPACE'] ?? 'kube-system', name: 'ipamkit-lb-alloc', identity: env['POD_NAME'] ?? hostname() })
    : undefined;
  if (elector !== undefined) {
    log.info('waiting for leadership');
    if (!(await elector.acquire(stop.signal))) {
      await metrics?.close();
      return 0;
    }
    elector.keepRenewing(() => {
      log.warn('lost leadership; exiting');
      stop.abort();
    });
    log.info('leading');
  }
  const view = kube.createInformerLbClusterView(env['KUBECONFIG'], { onError: (what, err) => log.warn('watch failed', { what, error: String(err) }) });
  const datastore = await createDatastore(datastoreConfig);
  const controller = new LbController({ datastore, view, assignIPs, fullSyncIntervalMs, registry: register, logger: log });
  await view.start();
  await controller.start();
  log.info('load balancer controller running', { assignIPs, fullSyncIntervalMs });
  await new Promise<void>((resolve) => stop.signal.addEventListener('abort', () => resolve(), { once: true }));
  log.info('stopping');
  elector?.stop();
  await controller.stop();
  await view.stop();
  await datastore.close();
  await metrics?.close();
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`ipamkit-lb-alloc: ${redactForOutput(err instanceof Error ? err.message : String(err))}\n`);
    process.exit(1);
  },
);

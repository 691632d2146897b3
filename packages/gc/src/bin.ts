import { hostname } from 'node:os';
import { parseArgs } from 'node:util';
import { createDatastore, datastoreSecrets, redactSecrets } from '@ipamkit/ipam-datastore';
import { register } from 'prom-client';
import { gcDatastoreConfig } from './datastore-config.js';
import { DEFAULT_METRICS_PORT } from './constants.js';
import { GcController } from './controller/gc-controller.js';
import { parseDuration } from './duration.js';
import { stderrLogger } from './logger.js';
import { startMetricsServer } from './metrics/metrics-server.js';

const USAGE = `ipamkit-gc: the ipamkit IPAM garbage collector

Usage: ipamkit-gc [--leak-grace-period 15m] [--metrics-port 9094] [--leader-elect] [--verbose]

The datastore comes from DATASTORE_TYPE and its companions (as every ipamkit tool); pods and nodes
from the Kubernetes API (KUBECONFIG, or in-cluster). Environment: IPAMKIT_GC_LEAK_GRACE_PERIOD
("unset" disables live-node candidates), IPAMKIT_GC_METRICS_PORT (-1 disables), POD_NAMESPACE,
POD_NAME. Leader election on a Lease is on when running in a cluster or with --leader-elect.`;

/** The secret values this process holds, read once at start (the kubeconfig is not re-read per line). */
const knownSecrets = datastoreSecrets(process.env);

/** Every line this bin prints goes through here: client errors may quote credentials. */
function redactForOutput(text: string): string {
  return redactSecrets(text, knownSecrets);
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      'leak-grace-period': { type: 'string' },
      'metrics-port': { type: 'string' },
      'leader-elect': { type: 'boolean' },
      'lease-duration': { type: 'string' },
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
  // Resolved before anything starts, so a bad setting fails fast (design/gc.md, "Datastore configuration").
  const datastoreConfig = gcDatastoreConfig(env);
  const graceText = values['leak-grace-period'] ?? env['IPAMKIT_GC_LEAK_GRACE_PERIOD'] ?? '15m';
  const leakGracePeriodMs = graceText === 'unset' ? null : parseDuration(graceText);
  const metricsPort = Number(values['metrics-port'] ?? env['IPAMKIT_GC_METRICS_PORT'] ?? DEFAULT_METRICS_PORT);
  const inCluster = (env['KUBERNETES_SERVICE_HOST'] ?? '') !== '';
  const leaderElect = values['leader-elect'] === true || inCluster;

  const { kubernetesRuntime } = await import('./cluster-view/kubernetes/index.js');
  const kube = kubernetesRuntime(env['KUBECONFIG']);
  const stop = new AbortController();
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => stop.abort());

  let leading = !leaderElect;
  const elector = leaderElect
    ? kube.createElector({
        namespace: env['POD_NAMESPACE'] ?? 'kube-system',
        name: 'ipamkit-gc',
        identity: env['POD_NAME'] ?? hostname(),
        ...(values['lease-duration'] === undefined ? {} : { leaseDurationMs: parseDuration(values['lease-duration']) }),
      })
    : undefined;
  const metrics = metricsPort < 0 ? undefined : await startMetricsServer({ registry: register, port: metricsPort, healthy: () => !stop.signal.aborted });
  if (metrics !== undefined) log.info('metrics listening', { port: metrics.port });

  if (elector !== undefined) {
    log.info('waiting for leadership');
    leading = await elector.acquire(stop.signal);
    if (leading) elector.keepRenewing(() => {
      log.warn('lost leadership; exiting');
      stop.abort();
    });
  }
  if (!leading) {
    await metrics?.close();
    return 0;
  }
  log.info('leading');
  const datastore = await createDatastore(datastoreConfig);
  const view = kube.createView({ onError: (what, err) => log.warn('watch failed', { what, error: String(err) }) });
  await view.start();
  const gc = new GcController({ datastore, view, leakGracePeriodMs, registry: register, logger: log });
  await gc.start();
  log.info('garbage collector running', { leakGracePeriodMs });
  await new Promise<void>((resolve) => stop.signal.addEventListener('abort', () => resolve(), { once: true }));
  log.info('stopping');
  elector?.stop();
  await gc.stop();
  await view.stop();
  await datastore.close();
  await metrics?.close();
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`ipamkit-gc: ${redactForOutput(err instanceof Error ? err.message : String(err))}\n`);
    process.exit(1);
  },
);

import { once } from 'node:events';
import { hostname } from 'node:os';
import { type BinIo, type FlagSpec, type FlagValues, parseFlags } from '@ipamkit/models';
import { register, type Registry } from 'prom-client';
import { untilAborted, withTimeout } from '../until-aborted.js';
import { type Logger, stderrLogger } from '../logger.js';
import { startMetricsServer } from '../metrics/metrics-server.js';
import { registerProcessMetrics } from '../metrics/process-metrics.js';
import { ControllerConfigError } from '../errors.js';
import { COMMON_FLAGS, commonSettings } from './flags.js';
import type { LeaderElector } from './leader-elector.js';

export interface ControllerContext {
  readonly env: NodeJS.ProcessEnv;
  readonly log: Logger;
  readonly registry: Registry;
}

/** A started controller: its first full sync, and how to stop it. */
export interface RunningController {
  /** Resolves once the first full sync is done: the process is ready from then on. */
  readonly synced: Promise<void>;
  stop(): Promise<void>;
}

export interface LeaseSettings {
  readonly namespace: string;
  readonly name: string;
  readonly identity: string;
  readonly leaseDurationMs?: number;
}

export interface ControllerDefinition<C> {
  /** The bin's name: prefixes error messages, names the Lease. */
  readonly name: string;
  readonly usage: string;
  /** What `--version` prints: the package's version. */
  readonly version: string;
  /** The controller's own flags, besides the common ones (`--metrics-port`, `--leader-elect`, ...). */
  readonly flags: FlagSpec;
  readonly defaultMetricsPort: number;
  /** The environment variable that overrides the metrics port, e.g. `IPAMKIT_GC_METRICS_PORT`. */
  readonly metricsPortEnv: string;
  /** Validates the controller's flags before anything starts; throws a validation error on bad input. */
  configure(values: FlagValues, env: NodeJS.ProcessEnv): C;
  createElector(lease: LeaseSettings, env: NodeJS.ProcessEnv): LeaderElector | Promise<LeaderElector>;
  /** Opens the datastore and starts watching; must not wait for the first sync (that is `synced`). */
  start(config: C, context: ControllerContext): Promise<RunningController>;
  /** Logged as `msg` once the first sync is done. */
  readonly runningMessage: string;
  runningFields?(config: C): Record<string, unknown>;
  /** Rewrites every line the bin prints (log lines, the final error): e.g. the datastore's secret redaction. */
  redact?(text: string): string;
}

/** The bin's io (its `signal` is SIGTERM and SIGINT: `runBin` with `stopOnSignal`), plus what tests replace. */
export interface RunnerIo extends Partial<BinIo> {
  readonly registry?: Registry;
  /** Called if shutdown overruns its budget (default: `process.exit(0)`). */
  readonly forceExit?: () => void;
}

/** The whole of shutdown fits in this, under Kubernetes' and the acceptance test's 5 s. */
const SHUTDOWN_BUDGET_MS = 4_000;
const STOP_CONTROLLER_MS = 2_000;
const RELEASE_LEASE_MS = 1_500;

/**
 * Runs a leader-elected controller (design/kube-runtime.md "Bin runner"): flags, metrics with process
 * metrics from the start, `/healthz` while not shutting down, `/readyz` only after the first full
 * sync, leader election, and a shutdown that SIGTERM starts at any moment (waiting for the lease,
 * before or during the first sync, while running): the controller stops, the lease is released, and
 * the answer is 0 within the shutdown budget.
 */
export async function runController<C>(definition: ControllerDefinition<C>, argv: readonly string[], io: RunnerIo = {}): Promise<number> {
  const env = io.env ?? process.env;
  const values = parseFlags(argv, { ...definition.flags, ...COMMON_FLAGS }, (message) => new ControllerConfigError(message));
  const settings = commonSettings(values, env, { metricsPort: definition.defaultMetricsPort, metricsPortEnv: definition.metricsPortEnv, hostname: hostname() });
  if (settings.help || settings.version) {
    (io.stdout ?? process.stdout).write(`${settings.help ? definition.usage : definition.version}\n`);
    return 0;
  }
  const config = definition.configure(values, env);
  const log = stderrLogger(settings.verbose, definition.redact?.bind(definition));
  const registry = io.registry ?? register;
  // Aborted by the bin's signal, and by the controller itself when it loses leadership.
  const stop = new AbortController();
  if (io.signal?.aborted === true) stop.abort();
  io.signal?.addEventListener('abort', () => stop.abort(), { once: true });
  let forced: NodeJS.Timeout | undefined;
  stop.signal.addEventListener('abort', () => {
    forced = setTimeout(() => {
      log.warn('shutdown overran its budget; exiting', { budgetMs: SHUTDOWN_BUDGET_MS });
      (io.forceExit ?? (() => process.exit(0)))();
    }, SHUTDOWN_BUDGET_MS);
    forced.unref();
  }, { once: true });

  let ready = false;
  registerProcessMetrics(registry);
  const metrics = settings.metricsPort < 0
    ? undefined
    : await startMetricsServer({ registry, port: settings.metricsPort, healthy: () => !stop.signal.aborted, ready: () => ready && !stop.signal.aborted });
  if (metrics !== undefined) log.info('metrics listening', { port: metrics.port });

  const elector = settings.leaderElect
    ? await definition.createElector({ ...settings.lease, name: definition.name, ...(settings.leaseDurationMs === undefined ? {} : { leaseDurationMs: settings.leaseDurationMs }) }, env)
    : undefined;
  let controller: RunningController | undefined;
  try {
    if (elector !== undefined) {
      log.info('waiting for leadership', { lease: definition.name, identity: settings.lease.identity });
      // The acquire loop sees the abort between rounds; the race also ends a round stuck on the API.
      if ((await untilAborted(elector.acquire(stop.signal), stop.signal))?.value === true) {
        elector.keepRenewing(() => {
          log.warn('lost leadership; exiting');
          stop.abort();
        });
        log.info('leading');
      }
    }
    if (!stop.signal.aborted) {
      controller = (await untilAborted(definition.start(config, { env, log, registry }), stop.signal))?.value;
      if (controller !== undefined && (await untilAborted(controller.synced, stop.signal)) !== undefined) {
        ready = true;
        log.info(definition.runningMessage, definition.runningFields?.(config) ?? {});
      }
    }
    if (!stop.signal.aborted) await once(stop.signal, 'abort');
  } finally {
    stop.abort();
    log.info('stopping');
    await shutDown(log, elector, controller);
    await metrics?.close();
    clearTimeout(forced);
  }
  return 0;
}

/** Stops the controller, then releases the lease, each within its share of the budget. */
async function shutDown(log: Logger, elector: LeaderElector | undefined, controller: RunningController | undefined): Promise<void> {
  elector?.stop();
  if (controller !== undefined) {
    const stopped = await withTimeout(controller.stop().catch((err: unknown) => log.warn('stop failed', { error: String(err) })), STOP_CONTROLLER_MS);
    if (stopped === undefined) log.warn('controller did not stop in time', { timeoutMs: STOP_CONTROLLER_MS });
  }
  if (elector?.isLeader === true) {
    const released = await withTimeout(elector.release().then(() => true, (err: unknown) => (log.warn('lease release failed', { error: String(err) }), false)), RELEASE_LEASE_MS);
    if (released?.value === true) log.info('lease released');
  }
}

/** A controller bin's main (design/models.md, "Bins"): its answer, or 1 and the redacted message on an error. */
export async function runControllerMain<C>(definition: ControllerDefinition<C>, argv: readonly string[], io: BinIo): Promise<number> {
  try {
    return await runController(definition, argv, io);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    io.stderr.write(`${definition.name}: ${definition.redact?.(message) ?? message}\n`);
    return 1;
  }
}

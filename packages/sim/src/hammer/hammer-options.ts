import { SimConfigError } from '../errors.js';

/** `ipamkit-sim hammer` settings (design/sim.md, "The hammer"). */
export interface HammerOptions {
  readonly processes: number;
  /** CNI operations (ADD + DEL) across all processes. */
  readonly ops: number;
  /** Chance per operation that its process is SIGKILLed while it runs. */
  readonly killRate: number;
  /** `kubernetes` (the Kubernetes API test server) only with `allCallers`. */
  readonly datastore: 'sqlite' | 'etcd' | 'kubernetes';
  /** Restart the etcd the hammer started, once, half way (etcd only). */
  readonly restartEtcd: boolean;
  /** Pods each allocator keeps alive at most. */
  readonly podsPerProcess: number;
  readonly gracePeriodMs: number;
  readonly settleTimeoutMs: number;
  readonly seed: number;
  /** Run every caller together as processes (design/sim.md, "All callers"). */
  readonly allCallers: boolean;
  /** Chance per Kubernetes API request of an injected 409/500/410 (all callers only). */
  readonly faultRate: number;
  /** LoadBalancer Services kept alive at most (all callers only). */
  readonly services: number;
  /** Mean time between SIGKILLs of a controller process; 0 never kills one (all callers only). */
  readonly controllerKillMs: number;
}

export const HAMMER_DEFAULTS: HammerOptions = {
  processes: 16,
  ops: 100_000,
  killRate: 0.01,
  datastore: 'sqlite',
  restartEtcd: false,
  podsPerProcess: 8,
  gracePeriodMs: 1000,
  settleTimeoutMs: 120_000,
  seed: 1,
  allCallers: false,
  faultRate: 0,
  services: 6,
  controllerKillMs: 2000,
};

export function resolveHammerOptions(partial: Partial<HammerOptions>): HammerOptions {
  const o: HammerOptions = { ...HAMMER_DEFAULTS, ...partial };
  const int = (name: string, v: number, min: number, max: number): void => {
    if (!Number.isInteger(v) || v < min || v > max) throw new SimConfigError(`--${name} must be an integer from ${min} to ${max}, got ${v}`);
  };
  int('processes', o.processes, 1, 256);
  int('ops', o.ops, 1, 100_000_000);
  int('pods-per-process', o.podsPerProcess, 1, 60);
  int('seed', o.seed, 0, 2 ** 31);
  if (!Number.isFinite(o.killRate) || o.killRate < 0 || o.killRate > 0.5) throw new SimConfigError(`--kill-rate must be between 0 and 0.5, got ${o.killRate}`);
  // Options come from the command line too: the type does not guarantee the value.
  const datastore: string = o.datastore;
  if (datastore !== 'sqlite' && datastore !== 'etcd' && datastore !== 'kubernetes') throw new SimConfigError(`--datastore must be sqlite, etcd or kubernetes, got ${datastore}`);
  if (datastore === 'kubernetes' && !o.allCallers) throw new SimConfigError('--datastore kubernetes needs --all-callers');
  if (o.allCallers && datastore === 'etcd') throw new SimConfigError('--all-callers runs on sqlite or kubernetes, not etcd');
  if (!Number.isFinite(o.faultRate) || o.faultRate < 0 || o.faultRate > 0.5) throw new SimConfigError(`--fault-rate must be between 0 and 0.5, got ${o.faultRate}`);
  if (o.faultRate > 0 && !o.allCallers) throw new SimConfigError('--fault-rate needs --all-callers');
  int('services', o.services, 0, 200);
  int('controller-kill-ms', o.controllerKillMs, 0, 3_600_000);
  if (o.controllerKillMs > 0 && o.controllerKillMs < 200) throw new SimConfigError(`--controller-kill-ms must be 0 or at least 200, got ${o.controllerKillMs}`);
  if (o.restartEtcd && o.datastore !== 'etcd') throw new SimConfigError('--restart-etcd needs --datastore etcd');
  if (!Number.isFinite(o.gracePeriodMs) || o.gracePeriodMs < 100) throw new SimConfigError(`--grace-ms must be at least 100, got ${o.gracePeriodMs}`);
  return o;
}

import { SimConfigError } from '../errors.js';
import type { SimDatastoreType } from '../run/run-options.js';

/** `ipamkit-sim hammer` settings (design/sim.md, "The hammer"). */
export interface HammerOptions {
  readonly processes: number;
  /** CNI operations (ADD + DEL) across all processes. */
  readonly ops: number;
  /** Chance per operation that its process is SIGKILLed while it runs. */
  readonly killRate: number;
  readonly datastore: SimDatastoreType;
  /** Restart the etcd the hammer started, once, half way (etcd only). */
  readonly restartEtcd: boolean;
  /** Pods each allocator keeps alive at most. */
  readonly podsPerProcess: number;
  readonly gracePeriodMs: number;
  readonly settleTimeoutMs: number;
  readonly seed: number;
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
  if (datastore !== 'sqlite' && datastore !== 'etcd') throw new SimConfigError(`--datastore must be sqlite or etcd, got ${datastore}`);
  if (o.restartEtcd && o.datastore !== 'etcd') throw new SimConfigError('--restart-etcd needs --datastore etcd');
  if (!Number.isFinite(o.gracePeriodMs) || o.gracePeriodMs < 100) throw new SimConfigError(`--grace-ms must be at least 100, got ${o.gracePeriodMs}`);
  return o;
}

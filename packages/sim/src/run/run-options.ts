import { SimConfigError } from '../errors.js';

export type SimDatastoreType = 'sqlite' | 'etcd';

/** `ipamkit-sim run` settings (design/sim.md, "The run"). */
export interface RunOptions {
  readonly nodes: number;
  /** Pods alive at the end; every pod slot is filled `churn` times. */
  readonly pods: number;
  readonly churn: number;
  readonly datastore: SimDatastoreType;
  /** SQLite file to use (kept afterwards); default a temp dir removed at the end. */
  readonly sqlitePath?: string;
  /** Use this etcd instead of starting one. */
  readonly etcdEndpoints?: readonly string[];
  /** Run the real `calico-ipam` bin as a child process per operation instead of `runCni` in-process. */
  readonly spawn: boolean;
  /** LoadBalancer Services created during the run. */
  readonly services: number;
  /** Share of nodes deleted half way through, with their pods and no CNI DEL. */
  readonly nodeDeleteRatio: number;
  /** Share of pod deletions whose CNI DEL never runs (the GC must reclaim them). */
  readonly lostDeleteRatio: number;
  /** GC leak grace period. */
  readonly gracePeriodMs: number;
  /** How long the end-of-run settling may take before the run fails. */
  readonly settleTimeoutMs: number;
  readonly seed: number;
  readonly reportPath?: string;
}

export const RUN_DEFAULTS: RunOptions = {
  nodes: 50,
  pods: 2000,
  churn: 3,
  datastore: 'sqlite',
  spawn: false,
  services: 20,
  nodeDeleteRatio: 0.1,
  lostDeleteRatio: 0.05,
  gracePeriodMs: 2000,
  settleTimeoutMs: 120_000,
  seed: 1,
};

function positiveInt(name: string, v: number, min: number, max: number): void {
  if (!Number.isInteger(v) || v < min || v > max) throw new SimConfigError(`--${name} must be an integer from ${min} to ${max}, got ${v}`);
}

function ratio(name: string, v: number): void {
  if (!Number.isFinite(v) || v < 0 || v > 1) throw new SimConfigError(`--${name} must be between 0 and 1, got ${v}`);
}

/** Fills defaults and rejects settings that cannot run, before anything is created. */
export function resolveRunOptions(partial: Partial<RunOptions>): RunOptions {
  const o: RunOptions = { ...RUN_DEFAULTS, ...partial };
  positiveInt('nodes', o.nodes, 2, 1000);
  // Each node's pods fit in its /26 blocks (10 per node-selected pool budget): keep pods/node sane.
  positiveInt('pods', o.pods, o.nodes, o.nodes * 200);
  positiveInt('churn', o.churn, 1, 100);
  positiveInt('services', o.services, 0, 200);
  positiveInt('seed', o.seed, 0, 2 ** 31);
  ratio('node-delete-ratio', o.nodeDeleteRatio);
  ratio('lost-delete-ratio', o.lostDeleteRatio);
  // Options come from the command line too: the type does not guarantee the value.
  const datastore: string = o.datastore;
  if (datastore !== 'sqlite' && datastore !== 'etcd') throw new SimConfigError(`--datastore must be sqlite or etcd, got ${datastore}`);
  if (!Number.isFinite(o.gracePeriodMs) || o.gracePeriodMs < 100) throw new SimConfigError(`--grace-ms must be at least 100, got ${o.gracePeriodMs}`);
  if (Math.floor(o.nodes * o.nodeDeleteRatio) >= o.nodes) throw new SimConfigError('--node-delete-ratio would delete every node');
  return o;
}

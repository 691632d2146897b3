import type { DatastoreConfig } from '@ipamkit/ipam-datastore';
import type { CniPodCall } from '../run/cni-call.js';

/** Passed to an allocator process in IPAMKIT_HAMMER_WORKER (JSON). */
export interface WorkerConfig {
  readonly datastore: DatastoreConfig;
  /** The CNI network config keys that select the same datastore. */
  readonly netConf: string;
}

/** Parent → allocator: one CNI call. */
export interface WorkerRequest extends CniPodCall {
  readonly id: number;
}

/** Allocator → parent: the call's outcome. */
export interface WorkerReply {
  readonly id: number;
  readonly exitCode: number;
  readonly stdout: string;
}

export const WORKER_ENV = 'IPAMKIT_HAMMER_WORKER';
export const READY = 'ready';

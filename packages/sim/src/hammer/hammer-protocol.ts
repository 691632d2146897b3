import type { DatastoreConfig } from '@ipamkit/ipam-datastore';

/** Passed to an allocator process in IPAMKIT_HAMMER_WORKER (JSON). */
export interface WorkerConfig {
  readonly datastore: DatastoreConfig;
  /** The CNI network config keys that select the same datastore. */
  readonly netConf: string;
}

/** Parent → allocator: one CNI call. */
export interface WorkerRequest {
  readonly id: number;
  readonly command: 'ADD' | 'DEL';
  readonly containerId: string;
  readonly namespace: string;
  readonly pod: string;
}

/** Allocator → parent: the call's outcome. */
export interface WorkerReply {
  readonly id: number;
  readonly exitCode: number;
  readonly stdout: string;
}

export const WORKER_ENV = 'IPAMKIT_HAMMER_WORKER';
export const READY = 'ready';

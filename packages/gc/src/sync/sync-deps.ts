import type { Clock, IpamClient } from '@ipamkit/ipam-core';
import type { ClusterView } from '../cluster-view/cluster-view.js';
import type { GcMetrics } from '../metrics/gc-metrics.js';
import type { NodeResolver } from '../nodes/node-resolver.js';
import type { GcState } from '../state/gc-state.js';
import type { Logger } from '@ipamkit/kube-runtime';

/** Collector settings that shape a pass (design/calico-callers.md#gc-configuration). */
export interface GcSettings {
  /** `LeakGracePeriod`; undefined is Calico's nil (no candidates on live nodes, no block GC). */
  readonly leakGracePeriodMs: number | undefined;
  /** Floor of a KubeVirt VM allocation's grace (Calico's `defaultVMRecreationGracePeriod`). */
  readonly vmGracePeriodMs: number;
  /** Per-pass release cap. */
  readonly maxReleasesPerPass: number;
}

/** Everything one pass reads and writes. */
export interface SyncDeps {
  readonly state: GcState;
  readonly view: ClusterView;
  readonly ipam: IpamClient;
  readonly clock: Clock;
  readonly settings: GcSettings;
  readonly resolver: NodeResolver;
  readonly metrics: GcMetrics | undefined;
  readonly log: Logger;
}

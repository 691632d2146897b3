import { type Clock, createIpamClient, type IpamClient, systemClock } from '@ipamkit/ipam-core';
import { type Datastore, type IPPool, retry } from '@ipamkit/models';
import { Registry } from 'prom-client';
import type { LbClusterView } from '../cluster-view/lb-cluster-view.js';
import { FULL_SYNC_INTERVAL_MS, LOAD_BALANCER_HOST, UPGRADE_RETRY_MS } from '../constants.js';
import { LbConfigError } from '../errors.js';
import { type Logger, silentLogger } from '@ipamkit/kube-runtime';
import { LbMetrics, type PendingReason } from '../metrics/lb-metrics.js';
import { type AssignIPsMode, isManagedService } from '../service/is-managed-service.js';
import { serviceKeyString, type ServiceKey } from '../service/lb-service.js';
import { AllocationTracker } from './allocation-tracker.js';
import { loadLoadBalancerPools, loadTracker } from './load-lb-state.js';
import { keyOfService, syncService, type SyncContext } from './sync-service.js';

export interface LbControllerOptions {
  readonly datastore: Datastore;
  readonly view: LbClusterView;
  /** Defaults to a client over `datastore`. */
  readonly ipam?: IpamClient;
  readonly clock?: Clock;
  /** `spec.controllers.loadBalancer.assignIPs`; default AllServices. Other text manages nothing (design/calico-callers.md#loadbalancer-configuration). */
  readonly assignIPs?: AssignIPsMode | (string & {});
  /** Periodic full sync; default 5 minutes; 0 disables the timer (tests call `syncNow`). */
  readonly fullSyncIntervalMs?: number;
  /** Retry period of the start-up host upgrade; default 10 s. */
  readonly upgradeRetryMs?: number;
  /** Where metrics go; default a private registry. */
  readonly registry?: Registry;
  readonly logger?: Logger;
}

/**
 * The LoadBalancer controller (design/calico-callers.md#cold-start-and-events): one serial worker runs full syncs and
 * per-Service syncs. Nothing is assigned until the first full sync has loaded every existing
 * `virtual:load-balancer` allocation (the cold-start rule); Service events that arrive earlier wait.
 */
export class LbController {
  readonly metrics: LbMetrics;
  readonly registry: Registry;
  private readonly ipam: IpamClient;
  private readonly clock: Clock;
  private readonly log: Logger;
  private readonly assignIPs: string;
  private readonly intervalMs: number;
  private trackerState = new AllocationTracker();
  private lbPools: IPPool[] = [];
  private readonly pending = new Map<string, PendingReason>();
  private readonly queued = new Map<string, { namespace: string; name: string }>();
  private fullRequested = false;
  private ready = false;
  private readonly stopping = new AbortController();
  private worker: Promise<void> | undefined;
  private idleWaiters: (() => void)[] = [];
  private timer: NodeJS.Timeout | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryMs = 0;
  private unsubscribe: (() => void) | undefined;

  constructor(private readonly options: LbControllerOptions) {
    this.clock = options.clock ?? systemClock;
    this.ipam = options.ipam ?? createIpamClient({ datastore: options.datastore, clock: this.clock });
    this.log = options.logger ?? silentLogger;
    this.assignIPs = options.assignIPs ?? 'AllServices';
    this.intervalMs = options.fullSyncIntervalMs ?? FULL_SYNC_INTERVAL_MS;
    if (!Number.isFinite(this.intervalMs) || this.intervalMs < 0) throw new LbConfigError(`invalid full sync interval: ${String(this.intervalMs)} ms`);
    if (this.assignIPs !== 'AllServices' && this.assignIPs !== 'RequestedServicesOnly') {
      this.log.warn('assignIPs is neither AllServices nor RequestedServicesOnly: no Service will be managed', { assignIPs: this.assignIPs });
    }
    this.registry = options.registry ?? new Registry();
    this.metrics = new LbMetrics(this.registry);
  }

  /** The allocation tracker (read-only use: tests and the simulator inspect it). */
  get tracker(): AllocationTracker {
    return this.trackerState;
  }

  /** Services short of addresses, by key, with the reason. */
  readonly pendingServices: ReadonlyMap<string, PendingReason> = this.pending;

  /**
   * Upgrades the virtual host's affinities (retrying until it succeeds, design/calico-callers.md#cold-start-and-events step 2), subscribes
   * to Service events and runs the first full sync; resolves when that sync is done.
   */
  async start(): Promise<void> {
    const everyMs = this.options.upgradeRetryMs ?? UPGRADE_RETRY_MS;
    try {
      await retry(() => this.ipam.upgradeHost(LOAD_BALANCER_HOST), {
        attempts: Infinity,
        backoff: { baseMs: everyMs, capMs: everyMs },
        signal: this.stopping.signal,
        onRetry: (err) => this.log.warn('failed to upgrade the load-balancer host; retrying', { error: err instanceof Error ? err.message : String(err) }),
      });
    } catch {
      return; // Only stop() ends an endless retry.
    }
    // A predecessor killed mid-claim may have left a pending affinity that no later claim of ours
    // would meet; as the one leader, nobody claims for this host meanwhile (design/lb-alloc.md,
    // "The tracker and the cold start"). Best effort: what fails here the next start tries again.
    try {
      const settled = await this.ipam.resolvePendingAffinities({ affinityType: 'virtual', host: LOAD_BALANCER_HOST });
      if (settled > 0) this.log.info('settled pending affinities left by an earlier claim', { settled });
    } catch (err) {
      this.log.warn('failed to settle pending affinities of the load-balancer host', { error: err instanceof Error ? err.message : String(err) });
    }
    this.unsubscribe = this.options.view.subscribe({ serviceChanged: (namespace, name) => this.enqueue(namespace, name) });
    this.ready = true;
    await this.syncNow();
    if (this.intervalMs > 0) {
      this.timer = setInterval(() => this.requestFullSync(), this.intervalMs);
      this.timer.unref();
    }
  }

  /** Stops the timers and waits for the sync in progress. */
  async stop(): Promise<void> {
    this.stopping.abort();
    this.unsubscribe?.();
    if (this.timer !== undefined) clearInterval(this.timer);
    if (this.retryTimer !== undefined) clearTimeout(this.retryTimer);
    await this.worker;
    this.releaseIdleWaiters();
  }

  /** Queues one Service for a sync (an informer event). */
  enqueue(namespace: string, name: string): void {
    this.queued.set(`${namespace}/${name}`, { namespace, name });
    this.schedule();
  }

  requestFullSync(): void {
    this.fullRequested = true;
    this.schedule();
  }

  /** Runs a full sync now and resolves once the worker is idle. */
  async syncNow(): Promise<void> {
    this.requestFullSync();
    await this.whenIdle();
  }

  /** Resolves when no sync is running or queued (events are awaited, never slept on). */
  whenIdle(): Promise<void> {
    if (this.worker === undefined && (!this.hasWork() || !this.ready || this.stopping.signal.aborted)) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Checks the tracker's three maps agree and that every tracked address is allocated to its handle. */
  async assertConsistentState(): Promise<void> {
    this.trackerState.assertConsistent();
    for (const key of this.trackerState.serviceKeys()) {
      const stored = await this.ipam.ipsByHandle(key.handle).catch((): string[] => []);
      for (const ip of this.trackerState.ipsOf(key)) {
        if (!stored.includes(ip)) throw new Error(`tracker: ${ip} of ${serviceKeyString(key)} is not allocated to its handle`);
      }
    }
  }

  private hasWork(): boolean {
    return this.fullRequested || this.queued.size > 0;
  }

  private schedule(): void {
    if (!this.ready || this.stopping.signal.aborted || this.worker !== undefined || !this.hasWork()) return;
    this.worker = this.drain().finally(() => {
      this.worker = undefined;
      if (this.hasWork() && !this.stopping.signal.aborted && this.retryTimer === undefined) this.schedule();
      else this.releaseIdleWaiters();
    });
  }

  private releaseIdleWaiters(): void {
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  private async drain(): Promise<void> {
    while (!this.stopping.signal.aborted && this.hasWork()) {
      try {
        if (this.fullRequested) {
          this.fullRequested = false;
          this.queued.clear();
          await this.fullSync();
        } else {
          const batch = [...this.queued.values()];
          this.queued.clear();
          await this.syncBatch(batch);
        }
        this.retryMs = 0;
      } catch (err) {
        // Loading pools or blocks failed (datastore down): retry a full sync with backoff.
        this.metrics.countError('load');
        this.retryMs = Math.min(Math.max(this.retryMs * 2, 500), 30_000);
        this.log.warn('sync failed; retrying', { error: err instanceof Error ? err.message : String(err), retryMs: this.retryMs });
        this.fullRequested = true;
        this.retryTimer = setTimeout(() => {
          this.retryTimer = undefined;
          this.schedule();
        }, this.retryMs);
        this.retryTimer.unref();
        return;
      }
    }
  }

  /** design/calico-callers.md#cold-start-and-events full sync: reload pools and every LoadBalancer allocation, then every relevant Service. */
  private async fullSync(): Promise<void> {
    this.metrics.countSync('full');
    const [pools, loaded] = await Promise.all([loadLoadBalancerPools(this.options.datastore), loadTracker(this.options.datastore)]);
    this.lbPools = pools;
    this.trackerState = loaded.tracker;
    if (loaded.skipped > 0) this.log.debug('allocations without service attributes ignored', { count: loaded.skipped });
    this.pending.clear();
    const keys = new Map<string, ServiceKey>();
    for (const svc of this.options.view.listServices()) {
      if (isManagedService(svc, this.assignIPs)) keys.set(serviceKeyString(keyOfService(svc)), keyOfService(svc));
    }
    for (const key of this.trackerState.serviceKeys()) keys.set(serviceKeyString(key), key);
    for (const key of keys.values()) await this.syncOne(key);
    this.updateMetrics();
  }

  /** Service events: the Service as it is now, plus any tracked owner of the same name (an older UID). */
  private async syncBatch(batch: readonly { namespace: string; name: string }[]): Promise<void> {
    this.lbPools = await loadLoadBalancerPools(this.options.datastore);
    for (const { namespace, name } of batch) {
      const keys = new Map<string, ServiceKey>();
      const svc = this.options.view.getService(namespace, name);
      if (svc !== undefined) keys.set(serviceKeyString(keyOfService(svc)), keyOfService(svc));
      for (const key of this.trackerState.serviceKeys()) {
        if (key.namespace === namespace && key.name === name) keys.set(serviceKeyString(key), key);
      }
      for (const key of keys.values()) await this.syncOne(key);
    }
    this.updateMetrics();
  }

  private async syncOne(key: ServiceKey): Promise<void> {
    this.metrics.countSync('service');
    const ctx: SyncContext = {
      ipam: this.ipam,
      view: this.options.view,
      tracker: this.trackerState,
      lbPools: this.lbPools,
      assignIPs: this.assignIPs,
      clock: this.clock,
      log: this.log,
      metrics: this.metrics,
      pending: this.pending,
    };
    try {
      await syncService(ctx, key);
    } catch (err) {
      this.log.warn('service sync failed', { service: serviceKeyString(key), error: err instanceof Error ? err.message : String(err) });
    }
  }

  private updateMetrics(): void {
    this.metrics.update({ ips: this.trackerState.allIPs(), pools: this.lbPools, pending: this.pending.values() });
  }
}

import type { Datastore } from '@ipamkit/models';
import { type Clock, type IpamClient, createIpamClient, systemClock } from '@ipamkit/ipam-core';
import { Registry } from 'prom-client';
import type { ClusterView } from '../cluster-view/cluster-view.js';
import { BATCH_UPDATE_SIZE, BATCH_WAIT_MS, DEFAULT_LEAK_GRACE_PERIOD_MS, DEFAULT_SYNC_PERIOD_MS, MAX_RELEASES_PER_PASS, VM_RECREATION_GRACE_PERIOD_MS } from '../constants.js';
import { GcConfigError, UnexpectedReleaseError } from '../errors.js';
import { type Logger, silentLogger } from '@ipamkit/kube-runtime';
import { GcMetrics } from '../metrics/gc-metrics.js';
import { deleteStaleCalicoNodes } from '../nodes/node-deleter.js';
import { type NodeResolver, datastoreNodeResolver, sameNameResolver } from '../nodes/node-resolver.js';
import { type ConsistencyOptions, assertConsistentState } from '../state/assert-consistent-state.js';
import { GcState } from '../state/gc-state.js';
import type { SyncDeps } from '../sync/sync-deps.js';
import { type SyncResult, syncIPAM } from '../sync/sync-ipam.js';
import { type GcInput, applyInput } from './gc-inputs.js';
import { listThenWatch } from './list-then-watch.js';
import { RetryController } from './retry-controller.js';

export interface GcControllerOptions {
  readonly datastore: Datastore;
  readonly view: ClusterView;
  /** Default: a client on `datastore` with `clock`. */
  readonly ipam?: IpamClient;
  /** Drives grace periods and cooldowns; default the system clock. */
  readonly clock?: Clock;
  /** `LeakGracePeriod` in ms; default 15 min; `null` is Calico's unset value (design/calico-callers.md#gc-configuration). */
  readonly leakGracePeriodMs?: number | null;
  /**
   * Where Calico nodes come from: `cluster-view` (Kubernetes datastore semantics: the Calico node is
   * the Kubernetes node) or `datastore` (etcd: Calico Node objects with a `k8s` orchestrator ref).
   * Default `datastore` for etcd, `cluster-view` otherwise.
   */
  readonly nodeSource?: 'cluster-view' | 'datastore';
  /** Delete Calico nodes whose Kubernetes node is gone (Calico's nodeDeleter); default on for `datastore`. */
  readonly deleteNodes?: boolean;
  readonly maxReleasesPerPass?: number;
  /** Floor of the VM grace period; default 5 min. */
  readonly vmGracePeriodMs?: number;
  readonly batchWaitMs?: number;
  /** Full-scan period; default half the grace period, or 5 min. */
  readonly syncPeriodMs?: number;
  /** `false`: no watches and no timers; inputs arrive only through `refresh()` (deterministic tests). */
  readonly background?: boolean;
  readonly registry?: Registry;
  readonly logger?: Logger;
}

/**
 * The IPAM garbage collector (design/calico-callers.md#gc-loop): one serial loop owns every map. Datastore inputs and
 * cluster delete notifications are batched, each batch kicks a pass, passes are dirty-only except
 * when a node was deleted or the period ticked, and a pass that leaves work behind is retried with
 * backoff.
 */
export class GcController {
  readonly state = new GcState();
  readonly metrics: GcMetrics;
  readonly registry: Registry;
  private readonly deps: SyncDeps;
  private readonly datastore: Datastore;
  private readonly nodeSource: 'cluster-view' | 'datastore';
  private readonly deleteNodes: boolean;
  private readonly batchWaitMs: number;
  private readonly syncPeriodMs: number;
  private readonly background: boolean;
  private readonly retry: RetryController;
  private pending: GcInput[] = [];
  private flushTimer: NodeJS.Timeout | undefined;
  private tickTimer: NodeJS.Timeout | undefined;
  private chain: Promise<unknown> = Promise.resolve();
  private syncQueued = false;
  private readonly abort = new AbortController();
  private readonly watchers: Promise<void>[] = [];
  private unsubscribe: (() => void) | undefined;
  private initialKinds = new Set<GcInput['kind']>();

  constructor(options: GcControllerOptions) {
    const lgp = options.leakGracePeriodMs === undefined ? DEFAULT_LEAK_GRACE_PERIOD_MS : (options.leakGracePeriodMs ?? undefined);
    if (lgp !== undefined && (!Number.isFinite(lgp) || lgp < 0)) throw new GcConfigError(`leak grace period must be a non-negative number of ms, got ${lgp}`);
    const clock = options.clock ?? systemClock;
    this.datastore = options.datastore;
    this.registry = options.registry ?? new Registry();
    this.metrics = new GcMetrics(this.registry);
    this.nodeSource = options.nodeSource ?? (options.datastore.kind === 'etcd' ? 'datastore' : 'cluster-view');
    this.deleteNodes = options.deleteNodes ?? this.nodeSource === 'datastore';
    const resolver: NodeResolver = this.nodeSource === 'datastore' ? datastoreNodeResolver(this.state, options.datastore) : sameNameResolver(options.view);
    this.deps = {
      state: this.state,
      view: options.view,
      ipam: options.ipam ?? createIpamClient({ datastore: options.datastore, clock }),
      clock,
      settings: {
        leakGracePeriodMs: lgp,
        vmGracePeriodMs: options.vmGracePeriodMs ?? VM_RECREATION_GRACE_PERIOD_MS,
        maxReleasesPerPass: options.maxReleasesPerPass ?? MAX_RELEASES_PER_PASS,
      },
      resolver,
      metrics: this.metrics,
      log: options.logger ?? silentLogger,
    };
    this.batchWaitMs = options.batchWaitMs ?? BATCH_WAIT_MS;
    this.syncPeriodMs = options.syncPeriodMs ?? (lgp !== undefined && lgp > 0 ? lgp / 2 : DEFAULT_SYNC_PERIOD_MS);
    this.background = options.background ?? true;
    this.retry = new RetryController(() => this.kick());
  }

  get settings(): SyncDeps['settings'] {
    return this.deps.settings;
  }

  /**
   * Lists every input, marks the collector in sync and (in the background mode) starts the watches,
   * the batching and the periodic full scan. Resolves once the first listing is applied.
   */
  async start(): Promise<void> {
    this.unsubscribe = this.deps.view.subscribe({
      podDeleted: (pod) => this.enqueueControl(() => this.state.markDirty(pod.nodeName)),
      nodeDeleted: () => this.onNodeDeleted(),
      serviceDeleted: () => this.enqueueControl(() => this.state.markLoadBalancersDirty()),
    });
    if (!this.background) {
      await this.refresh();
      return;
    }
    const kinds = this.inputKinds();
    const ready = new Promise<void>((resolve) => {
      const onSnapshot = (kind: GcInput['kind']): void => {
        this.initialKinds.add(kind);
        if (this.initialKinds.size === kinds.length) resolve();
      };
      for (const kind of kinds) this.watchers.push(this.watchKind(kind, onSnapshot));
    });
    await ready;
    await this.flush();
    await this.exclusive(() => {
      this.state.inSync = true;
    });
    this.tickTimer = setInterval(() => this.tick(), this.syncPeriodMs);
    this.tickTimer.unref();
    if (this.deleteNodes) void this.runNodeDeleter();
    this.kick();
  }

  async stop(): Promise<void> {
    this.abort.abort();
    this.unsubscribe?.();
    if (this.flushTimer !== undefined) clearTimeout(this.flushTimer);
    if (this.tickTimer !== undefined) clearInterval(this.tickTimer);
    this.retry.stop();
    await Promise.allSettled(this.watchers);
    await this.chain.catch(() => undefined);
  }

  /** Re-lists every input and reconciles the maps with it (also the recovery after a bad pass). */
  async refresh(): Promise<void> {
    const ds = this.datastore;
    const [blocks, pools, reservations, nodes] = await Promise.all([
      ds.blocks.listWithRevision(),
      ds.ipPools.listWithRevision(),
      ds.ipReservations.listWithRevision(),
      this.nodeSource === 'datastore' ? ds.nodes.listWithRevision() : Promise.resolve(undefined),
    ]);
    await this.exclusive(() => {
      this.applyPending();
      applyInput(this.state, this.metrics, { kind: 'pools', snapshot: pools.items });
      applyInput(this.state, this.metrics, { kind: 'reservations', snapshot: reservations.items });
      if (nodes !== undefined) applyInput(this.state, this.metrics, { kind: 'nodes', snapshot: nodes.items });
      applyInput(this.state, this.metrics, { kind: 'blocks', snapshot: blocks.items });
      this.state.inSync = true;
    });
  }

  /** Runs one pass now, after any pending inputs; `full` forces a full scan. Updates metrics. */
  async syncNow(options: { full?: boolean } = {}): Promise<SyncResult> {
    return this.exclusive(async () => {
      this.applyPending();
      if (options.full === true) this.state.fullSyncRequired = true;
      return this.runPass();
    });
  }

  /** ClusterInformation `datastoreReady` (design/calico-callers.md#gc-loop): while false, passes are skipped. */
  async setDatastoreReady(ready: boolean): Promise<void> {
    await this.exclusive(() => {
      this.state.datastoreReady = ready;
    });
    if (ready) this.kick();
  }

  /** Waits for queued inputs and passes to finish. */
  async whenIdle(): Promise<void> {
    await this.flush();
    await this.chain.catch(() => undefined);
  }

  /** Cross-checks every map, serialized with the loop (design/calico-callers.md#gc-invariants). */
  async assertConsistentState(options: ConsistencyOptions = {}): Promise<void> {
    await this.exclusive(() => assertConsistentState(this.state, options));
  }

  /** Writes the metrics now (tests; the loop does it after every pass). */
  async updateMetrics(): Promise<void> {
    await this.exclusive(() => this.refreshMetrics());
  }

  // ---- the loop ----------------------------------------------------------------------------

  private exclusive<T>(run: () => T | Promise<T>): Promise<T> {
    const next = this.chain.then(run, run);
    this.chain = next.catch(() => undefined);
    return next;
  }

  private inputKinds(): GcInput['kind'][] {
    return this.nodeSource === 'datastore' ? ['pools', 'reservations', 'nodes', 'blocks'] : ['pools', 'reservations', 'blocks'];
  }

  private watchKind(kind: GcInput['kind'], onSnapshot: (kind: GcInput['kind']) => void): Promise<void> {
    const ds = this.datastore;
    const common = { signal: this.abort.signal, onError: (err: unknown) => this.deps.log.warn('watch failed; listing again', { kind, error: String(err) }) };
    const after = (): void => {
      onSnapshot(kind);
      this.scheduleFlush();
    };
    switch (kind) {
      case 'blocks':
        return listThenWatch({ ...common, source: ds.blocks, onSnapshot: (items) => { this.pending.push({ kind, snapshot: items }); after(); }, onEvent: (event) => this.enqueue({ kind, event }) });
      case 'pools':
        return listThenWatch({ ...common, source: ds.ipPools, onSnapshot: (items) => { this.pending.push({ kind, snapshot: items }); after(); }, onEvent: (event) => this.enqueue({ kind, event }) });
      case 'reservations':
        return listThenWatch({ ...common, source: ds.ipReservations, onSnapshot: (items) => { this.pending.push({ kind, snapshot: items }); after(); }, onEvent: (event) => this.enqueue({ kind, event }) });
      case 'nodes':
        return listThenWatch({ ...common, source: ds.nodes, onSnapshot: (items) => { this.pending.push({ kind, snapshot: items }); after(); }, onEvent: (event) => this.enqueue({ kind, event }) });
    }
  }

  private enqueue(input: GcInput): void {
    this.pending.push(input);
    if (this.pending.length >= BATCH_UPDATE_SIZE) void this.flush();
    else this.scheduleFlush();
  }

  /** Control inputs (delete notifications) ride the same batching as datastore inputs. */
  private readonly controls: (() => void)[] = [];

  private enqueueControl(apply: () => void): void {
    this.controls.push(apply);
    this.scheduleFlush();
  }

  private onNodeDeleted(): void {
    this.enqueueControl(() => {
      this.state.fullSyncRequired = true;
    });
    if (this.deleteNodes && this.background) void this.runNodeDeleter();
  }

  private scheduleFlush(): void {
    if (!this.background || this.flushTimer !== undefined) return;
    this.flushTimer = setTimeout(() => void this.flush(), this.batchWaitMs);
  }

  private flush(): Promise<void> {
    if (this.flushTimer !== undefined) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
    return this.exclusive(() => {
      const applied = this.applyPending();
      if (applied > 0 && this.state.inSync) this.kick();
    });
  }

  private applyPending(): number {
    const inputs = this.pending;
    const controls = this.controls.splice(0);
    this.pending = [];
    for (const input of inputs) applyInput(this.state, this.metrics, input);
    for (const control of controls) control();
    return inputs.length + controls.length;
  }

  /** Asks for a pass; at most one is queued at a time (Calico's `syncChan` of capacity 1). */
  private kick(): void {
    if (this.syncQueued || this.abort.signal.aborted) return;
    this.syncQueued = true;
    void this.exclusive(async () => {
      this.syncQueued = false;
      this.applyPending();
      await this.runPass();
    });
  }

  private tick(): void {
    void this.exclusive(async () => {
      this.applyPending();
      this.state.fullSyncRequired = true;
      await this.runPass();
    });
  }

  /** One pass plus its bookkeeping: retry scheduling and metrics, on every path (design/gc.md). */
  private async runPass(): Promise<SyncResult> {
    let result: SyncResult;
    try {
      result = await syncIPAM(this.deps);
    } catch (err) {
      this.deps.log.warn('garbage collection pass failed; will retry', { error: String(err) });
      if (this.background) {
        // Our picture disagrees with the datastore's: start again from a fresh listing.
        if (err instanceof UnexpectedReleaseError) void this.refresh().catch((e: unknown) => this.deps.log.warn('re-list failed', { error: String(e) }));
        this.retry.scheduleRetry();
      }
      this.refreshMetrics();
      throw err;
    }
    if (result.workRemaining !== undefined) {
      this.deps.log.info(result.workRemaining.message);
      if (this.background) this.retry.scheduleRetry();
    } else {
      this.retry.success();
    }
    this.refreshMetrics();
    return result;
  }

  private refreshMetrics(): void {
    if (!this.state.inSync || !this.state.datastoreReady) return;
    const known = this.nodeSource === 'datastore' ? this.state.kubernetesNodesByCalicoName.keys() : this.deps.view.nodeNames();
    this.metrics.update(this.state, known);
  }

  private async runNodeDeleter(): Promise<void> {
    try {
      await deleteStaleCalicoNodes(this.datastore, this.deps.view);
    } catch (err) {
      this.deps.log.warn('stale node sweep failed', { error: String(err) });
    }
  }
}

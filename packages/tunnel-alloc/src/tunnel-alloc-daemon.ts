import { isTransient, type Versioned, type Watchable, type WatchEvent, WatchExpiredError } from '@ipamkit/models';
import { abortableEvents } from './abortable-events.js';
import { TunnelReconcileError } from './errors.js';
import { silentLogger, sleep } from '@ipamkit/models';
import { reconcileTunnelAddresses, type ReconcileOptions, type ReconcileResult } from './reconcile-tunnel-addresses.js';
import { ReconcileScheduler } from './reconcile-scheduler.js';
import { TriggerFilter } from './trigger-filter.js';

export interface DaemonOptions extends ReconcileOptions {
  /** Called after every successful reconcile (tests and metrics hook in here). */
  readonly onReconciled?: (result: ReconcileResult) => void;
  /** Aborting it stops the daemon like `stop()`. */
  readonly signal?: AbortSignal;
  /** Pause before re-listing after a transient watch failure (ms). */
  readonly watchRetryDelayMs?: number;
}

export interface TunnelAllocDaemon {
  /** Resolves when stopped; rejects with TunnelReconcileError when a reconcile fails (Calico exits then). */
  readonly done: Promise<void>;
  /** Stops watching; a reconcile in progress finishes first. */
  stop(): Promise<void>;
  /** Resolves once no reconcile is running or pending. */
  whenIdle(): Promise<void>;
}

/**
 * Follows one store from `revision`: every event goes to `onEvent`; an expired revision or a
 * transient failure re-lists (and reports the fresh list to `onResync`, which triggers a reconcile).
 */
async function follow<T>(
  store: Watchable<T>,
  revision: string,
  signal: AbortSignal,
  handlers: {
    readonly onEvent: (event: WatchEvent<T>) => void;
    readonly onResync: (items: Versioned<T>[]) => void;
    readonly retryDelayMs: number;
  },
): Promise<void> {
  let from = revision;
  // A function, not `signal.aborted` inline: the signal flips while this loop awaits.
  const aborted = (): boolean => signal.aborted;
  while (!aborted()) {
    try {
      for await (const event of abortableEvents(store.watch({ fromRevision: from, signal }), signal)) {
        from = event.revision;
        handlers.onEvent(event);
      }
      return;
    } catch (err) {
      if (aborted()) return;
      if (!(err instanceof WatchExpiredError) && !isTransient(err)) throw err;
      if (!(err instanceof WatchExpiredError)) await sleep(handlers.retryDelayMs, signal);
      if (aborted()) return;
      const fresh = await store.listWithRevision();
      from = fresh.revision;
      handlers.onResync(fresh.items);
    }
  }
}

/**
 * The per-node daemon (design/calico-callers.md#triggers): watches all pools and the own Node, reconciles
 * once in sync and then on every relevant change. Triggers during a run are coalesced into one
 * more run; a failed reconcile stops the daemon (its supervisor restarts it, as with Calico).
 */
export function startTunnelAllocDaemon(options: DaemonOptions): TunnelAllocDaemon {
  const logger = options.logger ?? silentLogger;
  const controller = new AbortController();
  const onOuterAbort = (): void => controller.abort();
  options.signal?.addEventListener('abort', onOuterAbort, { once: true });
  if (options.signal?.aborted === true) controller.abort();
  const { signal } = controller;
  const ds = options.datastore;
  const filter = new TriggerFilter(options.nodeName);
  let failure: TunnelReconcileError | undefined;

  const scheduler = new ReconcileScheduler(
    async () => {
      const result = await reconcileTunnelAddresses(options);
      options.onReconciled?.(result);
    },
    (err) => {
      failure = new TunnelReconcileError(err);
      logger.warn(failure.message);
      controller.abort();
    },
  );
  const trigger = (reason: string): void => {
    logger.info('reconcile triggered', { reason });
    scheduler.trigger();
  };

  const watching = (async () => {
    const [pools, nodes] = await Promise.all([ds.ipPools.listWithRevision(), ds.nodes.listWithRevision()]);
    filter.seedPools(pools.items);
    filter.seedNodes(nodes.items);
    const retryDelayMs = options.watchRetryDelayMs ?? 1000;
    // A relevant event triggers a reconcile; so does a re-list, after it reseeds the filter.
    const followKind = <T>(store: Watchable<T>, revision: string, what: string, seed: (items: Versioned<T>[]) => void, relevant: (event: WatchEvent<T>) => boolean): Promise<void> =>
      follow(store, revision, signal, {
        onEvent: (event) => {
          if (relevant(event)) trigger(`${what} changed`);
        },
        onResync: (items) => {
          seed(items);
          trigger(`${what}s re-listed`);
        },
        retryDelayMs,
      });
    const loops = Promise.all([
      followKind(ds.ipPools, pools.revision, 'pool', (items) => filter.seedPools(items), (event) => filter.poolEvent(event)),
      followKind(ds.nodes, nodes.revision, 'node', (items) => filter.seedNodes(items), (event) => filter.nodeEvent(event)),
    ]);
    // Stopped while listing: no initial reconcile.
    if (!signal.aborted) trigger('in sync');
    await loops;
  })();

  const done = (async () => {
    try {
      await watching;
    } catch (err) {
      if (!signal.aborted) failure ??= new TunnelReconcileError(err);
      controller.abort();
    }
    scheduler.stop();
    await scheduler.idle();
    options.signal?.removeEventListener('abort', onOuterAbort);
    if (failure !== undefined) throw failure;
  })();
  // `done` is also awaited by callers; this guard only keeps an unobserved failure from crashing.
  done.catch(() => undefined);

  return {
    done,
    stop: async () => {
      controller.abort();
      await done.catch(() => undefined);
    },
    whenIdle: () => scheduler.idle(),
  };
}

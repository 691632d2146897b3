import { type KubeConfig, Watch } from '@kubernetes/client-node';
import { type Backoff, backoffDelay, sleep } from '@ipamkit/models';
import { untilAborted } from '../until-aborted.js';

/** One page of a list call, in the shapes both the typed and the custom-object APIs return. */
export interface ListPage {
  readonly items: readonly unknown[];
  readonly metadata?: { readonly resourceVersion?: string; readonly _continue?: string; readonly continue?: string };
}

export interface ReflectorOptions<P> {
  readonly kc: KubeConfig;
  /** The watch path, e.g. `/api/v1/pods`. */
  readonly path: string;
  /** One page of the list; `continueToken` is undefined for the first page. */
  readonly list: (continueToken: string | undefined) => Promise<ListPage>;
  /** The projection kept per object (never the object itself, to bound memory); undefined drops it. */
  readonly project: (obj: unknown) => P | undefined;
  readonly key: (p: P) => string;
  /** An object was added or changed (and, on every re-list, each listed object, as client-go's resync). */
  readonly onChange?: (p: P) => void;
  /** An object was deleted, or missing from a re-list; called with the last projection kept. */
  readonly onDelete?: (p: P) => void;
  readonly onError?: (err: unknown) => void;
  /** Wait before listing again after a failure (default REFLECTOR_BACKOFF). */
  readonly backoff?: Backoff;
}

/** 200–300 ms first, doubling, never above 30 s: up to half again is added at random, so restarts spread out. */
export const REFLECTOR_BACKOFF: Backoff = { baseMs: 300, capMs: 30_000, jitter: 1 / 3 };

type WatchOutcome = { readonly kind: 'ended'; readonly resourceVersion: string } | { readonly kind: 'relist' };

/**
 * List-then-watch for one Kubernetes collection, keeping projections only (design/kube-runtime.md
 * "Reflector"). A watch that ends is resumed from the last resourceVersion; an ERROR event (410 Gone)
 * lists again at once; a failed list or watch lists again after a jittered backoff. Objects missing
 * from a re-list are reported as deletions, as client-go's DeletedFinalStateUnknown.
 */
export class Reflector<P> {
  readonly items = new Map<string, P>();
  /** Resolves after the first complete list; never rejects. */
  readonly synced: Promise<void>;
  private markSynced: () => void = () => undefined;
  private syncedOnce = false;
  private readonly abort = new AbortController();
  private watchAbort: AbortController | undefined;
  private running: Promise<void> | undefined;
  /** Failed lists or watches since the last good list: the backoff's retry index. */
  private failures = 0;

  constructor(private readonly options: ReflectorOptions<P>) {
    this.synced = new Promise<void>((resolve) => {
      this.markSynced = resolve;
    });
  }

  get hasSynced(): boolean {
    return this.syncedOnce;
  }

  start(): void {
    this.running ??= this.run();
  }

  /** Stops listing and watching; resolves once the loop has returned, without waiting for an unanswered request. */
  async stop(): Promise<void> {
    this.abort.abort();
    this.watchAbort?.abort();
    await this.running;
  }

  /** A method, not a getter: the answer changes across awaits. */
  private isStopped(): boolean {
    return this.abort.signal.aborted;
  }

  private async run(): Promise<void> {
    while (!this.isStopped()) {
      let relistNow = false;
      try {
        // A list the API server never answers must not hold up stop(): race it with the stop signal.
        const listed = await untilAborted(this.relist(), this.abort.signal);
        if (listed === undefined || this.isStopped()) return;
        let resourceVersion = listed.value;
        this.syncedOnce = true;
        this.markSynced();
        this.failures = 0;
        for (;;) {
          const watched = await untilAborted(this.watchOnce(resourceVersion), this.abort.signal);
          if (watched === undefined || this.isStopped()) return;
          if (watched.value.kind === 'relist') break;
          resourceVersion = watched.value.resourceVersion;
        }
        relistNow = true;
      } catch (err) {
        if (this.isStopped()) return;
        this.options.onError?.(err);
      }
      if (!relistNow) await sleep(backoffDelay(this.options.backoff ?? REFLECTOR_BACKOFF, this.failures++), this.abort.signal);
    }
  }

  private async relist(): Promise<string> {
    const seen = new Map<string, P>();
    let token: string | undefined;
    let resourceVersion = '';
    do {
      const page = await this.options.list(token);
      if (this.isStopped()) return resourceVersion;
      for (const obj of page.items) {
        const p = this.options.project(obj);
        if (p !== undefined) seen.set(this.options.key(p), p);
      }
      resourceVersion = page.metadata?.resourceVersion ?? resourceVersion;
      const next = page.metadata?._continue ?? page.metadata?.continue;
      token = next === undefined || next === '' ? undefined : next;
    } while (token !== undefined);
    if (this.isStopped()) return resourceVersion;
    const gone = [...this.items].filter(([key]) => !seen.has(key));
    this.items.clear();
    for (const [key, p] of seen) this.items.set(key, p);
    for (const [, p] of gone) this.options.onDelete?.(p);
    for (const p of seen.values()) this.options.onChange?.(p);
    return resourceVersion;
  }

  private applyEvent(phase: string, obj: unknown): void {
    const p = this.options.project(obj);
    if (p === undefined) return;
    const key = this.options.key(p);
    if (phase === 'DELETED') {
      const previous = this.items.get(key) ?? p;
      this.items.delete(key);
      this.options.onDelete?.(previous);
    } else {
      this.items.set(key, p);
      this.options.onChange?.(p);
    }
  }

  private watchOnce(fromVersion: string): Promise<WatchOutcome> {
    let resourceVersion = fromVersion;
    let relist = false;
    return new Promise((resolve, reject) => {
      const onEvent = (phase: string, obj: unknown): void => {
        // After stop() nothing reaches the callbacks, even from a watch whose request was still open.
        if (this.isStopped()) return;
        if (phase === 'ERROR') {
          // 410 Gone (or any error status): the history is gone, list again.
          relist = true;
          this.watchAbort?.abort();
          return;
        }
        const rv = (obj as { metadata?: { resourceVersion?: string } } | undefined)?.metadata?.resourceVersion;
        if (rv !== undefined) resourceVersion = rv;
        if (phase !== 'BOOKMARK') this.applyEvent(phase, obj);
      };
      const onDone = (err: unknown): void => {
        if (relist) resolve({ kind: 'relist' });
        else if (err !== null && err !== undefined && !this.isStopped()) reject(err instanceof Error ? err : new Error('watch failed', { cause: err }));
        else resolve({ kind: 'ended', resourceVersion });
      };
      new Watch(this.options.kc).watch(this.options.path, { resourceVersion, allowWatchBookmarks: true }, onEvent, onDone).then((controller) => {
        this.watchAbort = controller;
        if (this.isStopped()) controller.abort();
      }, reject);
    });
  }
}

import { type KubeConfig, Watch } from '@kubernetes/client-node';

/** One page of a list call, in the shapes both the typed and the custom-object APIs return. */
export interface ListPage {
  readonly items: readonly unknown[];
  readonly metadata?: { readonly resourceVersion?: string; readonly _continue?: string; readonly continue?: string };
}

export interface ReflectorOptions<P> {
  readonly kc: KubeConfig;
  /** The watch path, e.g. `/api/v1/pods`. */
  readonly path: string;
  readonly list: (continueToken: string | undefined) => Promise<ListPage>;
  /** The projection kept per object (never the object itself); undefined drops it. */
  readonly project: (obj: unknown) => P | undefined;
  readonly key: (p: P) => string;
  readonly onDelete?: (p: P) => void;
  readonly onError?: (err: unknown) => void;
}

/**
 * List-then-watch for one Kubernetes collection, keeping only projections (an informer whose cache
 * holds a few fields per object). A watch that ends is resumed from the last resourceVersion; an
 * error or a 410 Gone lists again after a backoff. Objects missing from a re-list are reported as
 * deletions, as client-go's DeletedFinalStateUnknown.
 */
export class Reflector<P> {
  readonly items = new Map<string, P>();
  private readonly abort = new AbortController();
  private watchAbort: AbortController | undefined;
  private resolveSynced!: () => void;
  readonly synced = new Promise<void>((resolve) => {
    this.resolveSynced = resolve;
  });
  private running: Promise<void> | undefined;

  constructor(private readonly options: ReflectorOptions<P>) {}

  start(): void {
    this.running ??= this.run();
  }

  async stop(): Promise<void> {
    this.abort.abort();
    this.watchAbort?.abort();
    await this.running;
  }

  private stopped(): boolean {
    return this.abort.signal.aborted;
  }

  private async run(): Promise<void> {
    let backoffMs = 200;
    while (!this.stopped()) {
      try {
        let resourceVersion = await this.relist();
        this.resolveSynced();
        backoffMs = 200;
        for (;;) {
          const outcome = await this.watchOnce(resourceVersion);
          if (this.stopped()) return;
          if (outcome.kind === 'gone') break;
          resourceVersion = outcome.resourceVersion;
        }
      } catch (err) {
        if (this.stopped()) return;
        this.options.onError?.(err);
      }
      await this.sleep(backoffMs);
      backoffMs = Math.min(backoffMs * 2, 30_000);
    }
  }

  private async relist(): Promise<string> {
    const seen = new Map<string, P>();
    let token: string | undefined;
    let resourceVersion = '';
    do {
      const page = await this.options.list(token);
      for (const obj of page.items) {
        const p = this.options.project(obj);
        if (p !== undefined) seen.set(this.options.key(p), p);
      }
      resourceVersion = page.metadata?.resourceVersion ?? resourceVersion;
      const next = page.metadata?._continue ?? page.metadata?.continue;
      token = next === undefined || next === '' ? undefined : next;
    } while (token !== undefined);
    for (const [key, p] of this.items) {
      if (!seen.has(key)) {
        this.items.delete(key);
        this.options.onDelete?.(p);
      }
    }
    for (const [key, p] of seen) this.items.set(key, p);
    return resourceVersion;
  }

  private watchOnce(fromVersion: string): Promise<{ kind: 'ended'; resourceVersion: string } | { kind: 'gone' }> {
    let resourceVersion = fromVersion;
    let gone = false;
    return new Promise((resolve, reject) => {
      const watch = new Watch(this.options.kc);
      const onEvent = (phase: string, obj: unknown): void => {
        const meta = (obj as { metadata?: { resourceVersion?: string } } | undefined)?.metadata;
        if (phase === 'ERROR') {
          // 410 Gone (or any error status): list again.
          gone = true;
          this.watchAbort?.abort();
          return;
        }
        if (meta?.resourceVersion !== undefined) resourceVersion = meta.resourceVersion;
        if (phase === 'BOOKMARK') return;
        const p = this.options.project(obj);
        if (p === undefined) return;
        const key = this.options.key(p);
        if (phase === 'DELETED') {
          const previous = this.items.get(key) ?? p;
          this.items.delete(key);
          this.options.onDelete?.(previous);
        } else {
          this.items.set(key, p);
        }
      };
      const onDone = (err: unknown): void => {
        if (gone) resolve({ kind: 'gone' });
        else if (err !== null && err !== undefined && !this.stopped()) reject(err instanceof Error ? err : new Error('watch failed', { cause: err }));
        else resolve({ kind: 'ended', resourceVersion });
      };
      watch
        .watch(this.options.path, { resourceVersion, allowWatchBookmarks: true }, onEvent, onDone)
        .then((controller) => {
          this.watchAbort = controller;
          if (this.stopped()) controller.abort();
        }, reject);
    });
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.abort.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      }, { once: true });
    });
  }
}

import { type KubeConfig, Watch } from '@kubernetes/client-node';

/** One page of a list call. */
export interface ListPage {
  readonly items: readonly unknown[];
  readonly metadata?: { readonly resourceVersion?: string; readonly _continue?: string; readonly continue?: string };
}

export interface ReflectorOptions<P> {
  readonly kc: KubeConfig;
  /** The watch path, e.g. `/api/v1/services`. */
  readonly path: string;
  readonly list: (continueToken: string | undefined) => Promise<ListPage>;
  /** The projection kept per object; undefined drops it. */
  readonly project: (obj: unknown) => P | undefined;
  readonly key: (p: P) => string;
  /** An object was added, changed or removed (removals after it left `items`). */
  readonly onChange?: (p: P) => void;
  readonly onError?: (err: unknown) => void;
}

/**
 * List-then-watch for one collection, keeping projections only (an informer). A watch that ends
 * resumes from the last resourceVersion; an error or 410 Gone re-lists after a backoff, and
 * objects missing from the re-list are reported as changes (they were deleted while unwatched).
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

  private isStopped(): boolean {
    return this.abort.signal.aborted;
  }

  private async run(): Promise<void> {
    let backoffMs = 200;
    while (!this.isStopped()) {
      try {
        let resourceVersion = await this.relist();
        this.resolveSynced();
        backoffMs = 200;
        for (;;) {
          const next = await this.watchOnce(resourceVersion);
          if (this.isStopped()) return;
          if (next === undefined) break;
          resourceVersion = next;
        }
      } catch (err) {
        if (this.isStopped()) return;
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
    const gone = [...this.items].filter(([key]) => !seen.has(key));
    this.items.clear();
    for (const [key, p] of seen) this.items.set(key, p);
    for (const [, p] of gone) this.options.onChange?.(p);
    for (const p of seen.values()) this.options.onChange?.(p);
    return resourceVersion;
  }

  /** Resolves with the resourceVersion to resume from, or undefined to re-list. */
  private watchOnce(fromVersion: string): Promise<string | undefined> {
    let resourceVersion = fromVersion;
    let gone = false;
    return new Promise((resolve, reject) => {
      const watch = new Watch(this.options.kc);
      const onEvent = (phase: string, obj: unknown): void => {
        if (phase === 'ERROR') {
          gone = true;
          this.watchAbort?.abort();
          return;
        }
        const rv = (obj as { metadata?: { resourceVersion?: string } } | undefined)?.metadata?.resourceVersion;
        if (rv !== undefined) resourceVersion = rv;
        if (phase === 'BOOKMARK') return;
        const p = this.options.project(obj);
        if (p === undefined) return;
        const key = this.options.key(p);
        if (phase === 'DELETED') this.items.delete(key);
        else this.items.set(key, p);
        this.options.onChange?.(p);
      };
      const onDone = (err: unknown): void => {
        if (gone) resolve(undefined);
        else if (err !== null && err !== undefined && !this.isStopped()) reject(err instanceof Error ? err : new Error('watch failed', { cause: err }));
        else resolve(resourceVersion);
      };
      watch.watch(this.options.path, { resourceVersion, allowWatchBookmarks: true }, onEvent, onDone).then((controller) => {
        this.watchAbort = controller;
        if (this.isStopped()) controller.abort();
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

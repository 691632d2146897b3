import type { Versioned, Watchable, WatchEvent } from '@ipamkit/models';

/**
 * Keeps one datastore kind flowing into the collector: list (a snapshot), then watch from the
 * listing's revision; on any error (an expired watch included) back off and list again.
 * Resolves when `signal` aborts.
 */
export async function listThenWatch<T>(args: {
  readonly source: Watchable<T>;
  readonly onSnapshot: (items: Versioned<T>[]) => void;
  readonly onEvent: (event: WatchEvent<T>) => void;
  readonly onError: (err: unknown) => void;
  readonly signal: AbortSignal;
}): Promise<void> {
  // A function, so each check re-reads the signal (it changes across awaits).
  const stopped = (): boolean => args.signal.aborted;
  let backoffMs = 100;
  while (!stopped()) {
    try {
      const { items, revision } = await args.source.listWithRevision();
      if (stopped()) return;
      args.onSnapshot(items);
      backoffMs = 100;
      for await (const event of args.source.watch({ fromRevision: revision, signal: args.signal })) {
        if (stopped()) return;
        args.onEvent(event);
      }
    } catch (err) {
      if (stopped()) return;
      args.onError(err);
    }
    if (stopped()) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, backoffMs);
      args.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      }, { once: true });
    });
    backoffMs = Math.min(backoffMs * 2, 30_000);
  }
}

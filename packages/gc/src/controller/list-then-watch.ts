import { backoffDelay, sleep, type Versioned, type Watchable, type WatchEvent } from '@ipamkit/models';

/** 100 ms doubling to 30 s between failed rounds; a good listing starts again from 100 ms. */
const RELIST_BACKOFF = { baseMs: 100, capMs: 30_000 };

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
  let failures = 0;
  while (!stopped()) {
    try {
      const { items, revision } = await args.source.listWithRevision();
      if (stopped()) return;
      args.onSnapshot(items);
      failures = 0;
      for await (const event of args.source.watch({ fromRevision: revision, signal: args.signal })) {
        if (stopped()) return;
        args.onEvent(event);
      }
    } catch (err) {
      if (stopped()) return;
      args.onError(err);
    }
    if (stopped()) return;
    await sleep(backoffDelay(RELIST_BACKOFF, failures++), args.signal);
  }
}

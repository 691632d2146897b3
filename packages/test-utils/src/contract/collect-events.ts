import type { WatchEvent } from '@ipamkit/models';

export type ChangeEvent<T> = Exclude<WatchEvent<T>, { type: 'bookmark' }>;

/**
 * Reads `count` non-bookmark events from a watch, then ends it. Fails with the events seen so far
 * when they do not arrive within `timeoutMs`.
 */
export async function collectEvents<T>(
  watch: AsyncIterable<WatchEvent<T>>,
  count: number,
  timeoutMs: number,
): Promise<ChangeEvent<T>[]> {
  const events: ChangeEvent<T>[] = [];
  const iterator = watch[Symbol.asyncIterator]();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`watch delivered ${events.length} of ${count} events in ${timeoutMs} ms: ${JSON.stringify(events.map(describeEvent))}`));
    }, timeoutMs);
  });
  try {
    while (events.length < count) {
      const next = await Promise.race([iterator.next(), timeout]);
      if (next.done === true) throw new Error(`watch ended after ${events.length} of ${count} events`);
      if (next.value.type !== 'bookmark') events.push(next.value);
    }
    return events;
  } finally {
    clearTimeout(timer);
    // Not awaited: an async generator's return() waits for its pending await; callers also abort.
    void iterator.return?.().catch(() => undefined);
  }
}

/** `type:key`, the shape the ordering assertions compare. */
export function describeEvent(e: ChangeEvent<unknown>): string {
  return `${e.type}:${e.key}`;
}

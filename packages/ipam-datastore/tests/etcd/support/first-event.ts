import type { WatchEvent } from '@ipamkit/models';

/**
 * The same watch, and a promise of its first change event. A test that restarts etcd under a watch
 * waits for it: before the first event the watch may still be being created, and a watch whose
 * creation fails is the caller's to open again (it is not resumed like an established stream).
 */
export function withFirstEvent<T>(watch: AsyncIterable<WatchEvent<T>>): { watch: AsyncIterable<WatchEvent<T>>; first: Promise<void> } {
  let seen: () => void = () => undefined;
  const first = new Promise<void>((resolve) => (seen = resolve));
  return {
    first,
    watch: {
      async *[Symbol.asyncIterator]() {
        for await (const event of watch) {
          if (event.type !== 'bookmark') seen();
          yield event;
        }
      },
    },
  };
}

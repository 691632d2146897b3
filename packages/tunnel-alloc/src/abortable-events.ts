/**
 * Iterates `source`, ending as soon as `signal` aborts even if the source does not notice. The
 * etcd backend's watch misses an abort that lands while it is still being created (see
 * design/tunnel-alloc.md, "Daemon"), which would leave the daemon unable to stop.
 */
export async function* abortableEvents<T>(source: AsyncIterable<T>, signal: AbortSignal): AsyncGenerator<T, void, undefined> {
  if (signal.aborted) return;
  const iterator = source[Symbol.asyncIterator]();
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<'aborted'>((resolve) => {
    onAbort = () => resolve('aborted');
    signal.addEventListener('abort', onAbort, { once: true });
  });
  let finished = false;
  try {
    for (;;) {
      const next = iterator.next();
      // A step still pending when we give up must not surface as an unhandled rejection.
      next.catch(() => undefined);
      const step = await Promise.race([next, aborted]);
      if (step === 'aborted') return;
      if (step.done === true) {
        finished = true;
        return;
      }
      yield step.value;
    }
  } finally {
    if (onAbort !== undefined) signal.removeEventListener('abort', onAbort);
    // Not awaited: a source stuck mid-step would block the return until it wakes.
    if (!finished) iterator.return?.(undefined).catch(() => undefined);
  }
}

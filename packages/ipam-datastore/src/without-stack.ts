/**
 * The error `make` builds, without capturing a stack trace (`stack` is the header line only), for
 * errors that callers routinely expect and catch: a not-found on an object that is usually absent
 * (the 'default' IPAMConfig, a fresh handle). Capturing the stack of the core's deep async call
 * chain costs tens of microseconds per error. `Error.stackTraceLimit` is restored before this returns.
 */
export function withoutStack<E extends Error>(make: () => E): E {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  try {
    return make();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

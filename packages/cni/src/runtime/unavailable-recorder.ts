import { DatastoreUnavailableError, type Datastore } from '@ipamkit/models';

type Method = (...args: unknown[]) => unknown;

/** Calls `fn` on `self`, reporting a DatastoreUnavailableError it rejects with; the caller still gets the rejection. */
function reporting(fn: Method, self: object, onUnavailable: (err: DatastoreUnavailableError) => void): Method {
  return (...args) => {
    const out = fn.apply(self, args);
    if (out instanceof Promise) {
      out.then(undefined, (err: unknown) => {
        if (err instanceof DatastoreUnavailableError) onUnavailable(err);
      });
    }
    return out;
  };
}

/** `target` whose methods, and whose member objects' methods, report unavailability; bound to the real objects. */
function wrap<T extends object>(target: T, onUnavailable: (err: DatastoreUnavailableError) => void, depth: number): T {
  const cache = new Map<PropertyKey, unknown>();
  return new Proxy(target, {
    get(t, prop) {
      const value: unknown = Reflect.get(t, prop, t);
      if (cache.has(prop)) return cache.get(prop);
      let wrapped: unknown = value;
      if (typeof value === 'function') wrapped = reporting(value as Method, t, onUnavailable);
      else if (depth > 0 && typeof value === 'object' && value !== null) wrapped = wrap(value, onUnavailable, depth - 1);
      cache.set(prop, wrapped);
      return wrapped;
    },
  });
}

/**
 * The datastore, telling `onUnavailable` of every DatastoreUnavailableError one of its operations
 * (or one of its stores' operations) rejects with. The core retries those until the call's budget
 * runs out, so without this the code-11 answer could not say why the datastore was unavailable: a
 * TLS handshake the server refused, an unreachable endpoint (design/cni.md, "Deadline").
 */
export function reportingUnavailable(datastore: Datastore, onUnavailable: (err: DatastoreUnavailableError) => void): Datastore {
  return wrap(datastore, onUnavailable, 1);
}

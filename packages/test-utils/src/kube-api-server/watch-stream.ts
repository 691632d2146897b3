import type { ServerResponse } from 'node:http';
import { stringifyLosslessJson } from './lossless-json.js';
import { ResourceVersionExpiredError, type KubeObject, type ObjectStore, type StoreEvent } from './object-store.js';
import { collectionOf, fieldSelectorMatcher, matchesSelectors, parseSelector } from './resource-handlers.js';
import { apiVersionOf, type ResourceType } from './resource-types.js';
import { statusErrors } from './status.js';

export interface WatchSettings {
  readonly bookmarkIntervalMs: number;
}

/**
 * A `?watch=1` stream: one JSON event per line. Without a resourceVersion (or with "0") the
 * current objects come first as synthetic ADDED events; with one, every event after it is
 * replayed from the history, or, if it was compacted, a single ERROR event carrying a 410
 * Status ends the stream, as a real API server does. Selector transitions become ADDED/DELETED.
 */
export function serveWatch(
  res: ServerResponse,
  store: ObjectStore,
  type: ResourceType,
  namespace: string | undefined,
  query: URLSearchParams,
  settings: WatchSettings,
  onClose: (stop: () => void) => void,
): void {
  const labels = parseSelector(query.get('labelSelector'));
  const fields = fieldSelectorMatcher(query.get('fieldSelector'));
  const collection = collectionOf(type);
  const nsPrefix = namespace === undefined ? undefined : `${collection}/${namespace}/`;
  const inScope = (key: string): boolean => nsPrefix === undefined || key.startsWith(nsPrefix);
  const matches = (obj: KubeObject | undefined): boolean => obj !== undefined && matchesSelectors(obj, labels, fields);

  res.writeHead(200, { 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
  const send = (kind: string, object: unknown): void => {
    res.write(`${stringifyLosslessJson({ type: kind, object })}\n`);
  };

  const deliver = (event: StoreEvent): void => {
    if (event.collection !== collection || !inScope(event.key)) return;
    const now = event.type === 'DELETED' ? undefined : event.object;
    const was = event.type === 'ADDED' ? undefined : event.previous;
    const nowMatches = matches(now);
    const wasMatches = matches(was);
    if (event.type === 'DELETED') {
      if (wasMatches) send('DELETED', event.object);
    } else if (nowMatches && wasMatches) send('MODIFIED', event.object);
    else if (nowMatches) send('ADDED', event.object);
    else if (wasMatches) send('DELETED', event.object);
  };

  const rvParam = query.get('resourceVersion');
  let backlog: StoreEvent[] = [];
  if (rvParam === null || rvParam === '' || rvParam === '0') {
    for (const { key, object } of store.snapshot(collection)) if (inScope(key) && matches(object)) send('ADDED', object);
  } else {
    let from: bigint;
    try {
      from = BigInt(rvParam);
    } catch {
      send('ERROR', statusErrors.badRequest(`invalid resource version: ${rvParam}`).toStatus());
      res.end();
      return;
    }
    try {
      backlog = store.eventsSince(from);
    } catch (err) {
      if (!(err instanceof ResourceVersionExpiredError)) throw err;
      send('ERROR', statusErrors.gone(err.message).toStatus());
      res.end();
      return;
    }
  }
  for (const event of backlog) deliver(event);
  const unsubscribe = store.subscribe(deliver);

  const timers: NodeJS.Timeout[] = [];
  if (query.get('allowWatchBookmarks') === 'true' || query.get('allowWatchBookmarks') === '1') {
    const bookmark = setInterval(() => {
      send('BOOKMARK', { kind: type.kind, apiVersion: apiVersionOf(type), metadata: { resourceVersion: store.currentRevision.toString() } });
    }, settings.bookmarkIntervalMs);
    timers.push(bookmark);
  }
  const stop = (): void => {
    unsubscribe();
    for (const t of timers) clearInterval(t);
    if (!res.writableEnded) res.end();
  };
  const timeout = Number(query.get('timeoutSeconds') ?? '0');
  if (timeout > 0) timers.push(setTimeout(stop, timeout * 1000));
  res.on('close', stop);
  onClose(stop);
}

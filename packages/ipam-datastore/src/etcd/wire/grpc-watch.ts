import { Range, type IKeyValue, type IWatchResponse, type Watcher } from 'etcd3';
import type { WireWatch, WireWatchHandlers, WireWatchRequest } from './etcd-wire.js';
import { grpcWireError } from './grpc-errors.js';
import { fromGrpcKv, type GrpcEtcdWire } from './grpc-wire.js';
import { EtcdWireError } from './wire-error.js';

/** Re-established streams in a row that delivered nothing before the stream gives up. */
const MAX_CONNECTS_WITHOUT_DATA = 5;

/**
 * A watch over etcd3's watcher. etcd3 re-establishes a broken stream by itself; this keeps its
 * resume point at the first revision not yet delivered (design/ipam-datastore.md, "etcd watches").
 */
export async function startGrpcWatch(wire: GrpcEtcdWire, request: WireWatchRequest, handlers: WireWatchHandlers): Promise<WireWatch> {
  const builder = wire.client.watch().withPreviousKV();
  if (request.end === undefined) builder.key(request.key);
  else builder.inRange(new Range(request.key, request.end));
  if (request.startRevision !== undefined) builder.startRevision(request.startRevision);
  let watcher: Watcher;
  try {
    watcher = await builder.create();
  } catch (err) {
    throw grpcWireError(err, wire.target);
  }
  let ended = false;
  const fail = (err: unknown): void => {
    if (ended) return;
    ended = true;
    handlers.onFailure(err);
  };
  // The first revision this stream still owes its consumer: where a re-established stream must resume.
  let owed = request.startRevision;
  // etcd3 resumes a broken stream after the *header* revision of the last response it saw, and the
  // header of the watch-created response is the store's revision, not the watch's progress: a
  // stream broken before it caught up from `start` would silently skip the events in between (seen
  // with an etcd restart right after a write). So the resume point is put back to the first
  // revision not yet delivered: now (etcd3 moved it when the watch was created), and whenever
  // etcd3 is about to send the create request again ('connecting' is emitted just before).
  const resumeAtOwed = (): void => {
    if (owed !== undefined) watcher.request.start_revision = owed;
  };
  resumeAtOwed();
  watcher.on('connecting', resumeAtOwed);
  // A stream that breaks every time right after it is re-established (a catch-up response it can
  // never receive) would otherwise retry forever in silence: end it, so the consumer lists again.
  let connectsWithoutData = 0;
  watcher.on('connected', () => {
    connectsWithoutData += 1;
    if (connectsWithoutData > MAX_CONNECTS_WITHOUT_DATA) {
      fail(new EtcdWireError('unavailable', wire.target, `the stream broke ${MAX_CONNECTS_WITHOUT_DATA} times in a row before delivering anything; list again`));
    }
  });
  watcher.on('disconnected', (err: unknown) => {
    // A response over maxReceiveMessageBytes breaks the stream the same way on every reconnect.
    if (isMessageTooLarge(err)) {
      fail(new EtcdWireError('unavailable', wire.target, 'a watch response was larger than the client accepts (maxReceiveMessageBytes); list again', { cause: err }));
    }
  });
  watcher.on('data', (res: IWatchResponse) => {
    connectsWithoutData = 0;
    if (ended || res.events.length === 0) return;
    const events = res.events.map((ev) => ({
      type: ev.type === 'Delete' ? ('delete' as const) : ('put' as const),
      kv: fromGrpcKv(ev.kv),
      previous: previousOf(ev.prev_kv),
    }));
    const last = events[events.length - 1];
    if (last !== undefined) owed = (BigInt(last.kv.modRevision) + 1n).toString();
    handlers.onEvents(events);
  });
  watcher.on('error', (err: unknown) => fail(grpcWireError(err, wire.target)));
  return {
    cancel: async () => {
      ended = true;
      watcher.removeAllListeners('data');
      await watcher.cancel().catch(() => undefined);
    },
  };
}

/** gRPC RESOURCE_EXHAUSTED for an oversized message (code 8, "Received message larger than max"). */
function isMessageTooLarge(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  return code === 8 || (typeof message === 'string' && message.includes('larger than max'));
}

/** etcd3 hands `null` (not undefined, whatever its types say) when there was no previous value. */
function previousOf(kv: IKeyValue | null | undefined): ReturnType<typeof fromGrpcKv> | undefined {
  return kv == null ? undefined : fromGrpcKv(kv);
}

import { backoffDelay, sleep } from '@ipamkit/models';
import { Range, type Etcd3, type IKeyValue, type IWatchResponse, type Watcher } from 'etcd3';
import type { WireWatch, WireWatchHandlers, WireWatchRequest } from './etcd-wire.js';
import { grpcWireError } from './grpc-errors.js';
import { fromGrpcKv, type GrpcEtcdWire } from './grpc-wire.js';
import { EtcdWireError } from './wire-error.js';

/** Re-established streams in a row that delivered nothing before the stream gives up. */
const MAX_CONNECTS_WITHOUT_DATA = 5;
/** Moves to a fresh client in a row (etcd forgot our token each time) before the watch gives up. */
const MAX_TOKEN_RENEWALS = 5;
/** Pause before the first move, 100 ms doubling (a just-restarted etcd may still drop new tokens). */
const RENEWAL_BACKOFF = { baseMs: 100, capMs: 100 * 2 ** (MAX_TOKEN_RENEWALS - 1) };

/**
 * A watch over etcd3's watcher. etcd3 re-establishes a broken stream by itself; this keeps its
 * resume point at the first revision not yet delivered (design/ipam-datastore.md, "etcd watches"),
 * and moves the watch to a fresh client when etcd cancels it for a forgotten auth token (etcd3
 * keeps its shared watch stream, opened with that token, after an etcd restart).
 */
export async function startGrpcWatch(wire: GrpcEtcdWire, request: WireWatchRequest, handlers: WireWatchHandlers): Promise<WireWatch> {
  let ended = false;
  // The first revision this stream still owes its consumer: where a re-established stream must resume.
  let owed = request.startRevision;
  let renewals = 0;
  const isEnded = (): boolean => ended;
  /** Clients this watch made for itself (closed with it). */
  const owned: Etcd3[] = [];
  const fail = (err: unknown): void => {
    if (ended) return;
    ended = true;
    handlers.onFailure(err);
  };

  const open = async (client: Etcd3): Promise<Watcher> => {
    const builder = client.watch().withPreviousKV();
    if (request.end === undefined) builder.key(request.key);
    else builder.inRange(new Range(request.key, request.end));
    if (owed !== undefined) builder.startRevision(owed);
    const watcher = await builder.create();
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
      renewals = 0;
      const events = res.events.map((ev) => ({
        type: ev.type === 'Delete' ? ('delete' as const) : ('put' as const),
        kv: fromGrpcKv(ev.kv),
        previous: previousOf(ev.prev_kv),
      }));
      const last = events[events.length - 1];
      if (last !== undefined) owed = (BigInt(last.kv.modRevision) + 1n).toString();
      handlers.onEvents(events);
    });
    watcher.on('error', (err: unknown) => {
      if (!ended && isForgottenToken(err) && renewals < MAX_TOKEN_RENEWALS) {
        renewals += 1;
        void renew();
        return;
      }
      fail(grpcWireError(err, wire.target));
    });
    return watcher;
  };

  /**
   * Opens the watch from `owed`, first on `client`, then (while etcd says it forgot the token, as
   * it does for a while after a restart) on fresh clients of its own, which authenticate afresh.
   */
  const openRenewing = async (client: Etcd3): Promise<Watcher> => {
    for (let target = client; ; ) {
      try {
        return await open(target);
      } catch (err) {
        if (ended || !isForgottenToken(err) || renewals >= MAX_TOKEN_RENEWALS) throw err;
        renewals += 1;
      }
      await sleep(backoffDelay(RENEWAL_BACKOFF, renewals - 1));
      target = wire.newClient();
      owned.push(target);
    }
  };

  let current: Watcher;
  try {
    current = await openRenewing(wire.client);
  } catch (err) {
    for (const client of owned) client.close();
    throw grpcWireError(err, wire.target);
  }

  /** A running watch etcd cancelled for a forgotten token: re-create it on a fresh client. */
  const renew = async (): Promise<void> => {
    await sleep(backoffDelay(RENEWAL_BACKOFF, renewals - 1));
    if (ended) return;
    const client = wire.newClient();
    owned.push(client);
    try {
      const next = await openRenewing(client);
      current = next;
      // Cancelled while it was being re-created: read through a call, not the pre-`await` narrowing.
      if (isEnded()) await next.cancel().catch(() => undefined);
    } catch (err) {
      fail(grpcWireError(err, wire.target));
    }
  };

  return {
    cancel: async () => {
      ended = true;
      current.removeAllListeners('data');
      await current.cancel().catch(() => undefined);
      for (const client of owned) client.close();
    },
  };
}

/** etcd cancelled the watch because the stream's auth token is unknown to it (etcd restarted). */
function isForgottenToken(err: unknown): boolean {
  return err instanceof Error && err.message.includes('invalid auth token');
}

/** etcd3 hands `null` (not undefined, whatever its types say) when there was no previous value. */
function previousOf(kv: IKeyValue | null | undefined): ReturnType<typeof fromGrpcKv> | undefined {
  return kv == null ? undefined : fromGrpcKv(kv);
}

/** gRPC RESOURCE_EXHAUSTED for an oversized message (code 8, "Received message larger than max"). */
function isMessageTooLarge(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  return code === 8 || (typeof message === 'string' && message.includes('larger than max'));
}

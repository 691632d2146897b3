import type { ClientRequest, IncomingMessage } from 'node:http';
import { backoffDelay, retry, sleep } from '@ipamkit/models';
import type { WireWatch, WireWatchEvent, WireWatchHandlers, WireWatchRequest } from './etcd-wire.js';
import type { HttpTransport } from './http-transport.js';
import { gatewayError } from './http-transport.js';
import { fromJsonKv, revisionOf, type JsonKv } from './http-wire.js';
import { EtcdWireError } from './wire-error.js';

/** Re-established streams in a row that delivered nothing before the watch gives up (as the grpc client). */
const MAX_CONNECTS_WITHOUT_DATA = 5;
/** 50 ms doubling to 2 s between attempts to reopen a broken stream. */
const RECONNECT_BACKOFF = { baseMs: 50, capMs: 2_000 };

interface JsonEvent {
  readonly type?: 'PUT' | 'DELETE';
  readonly kv?: JsonKv;
  readonly prev_kv?: JsonKv;
}

/** One line of the gateway's watch stream: a WatchResponse, or a stream error. */
interface WatchLine {
  readonly result?: {
    readonly header?: { readonly revision?: string };
    readonly created?: boolean;
    readonly canceled?: boolean;
    readonly compact_revision?: string;
    readonly cancel_reason?: string;
    readonly events?: readonly JsonEvent[];
  };
  readonly error?: { readonly grpc_code?: number; readonly http_code?: number; readonly message?: string };
}

/** Opens a watch on etcd's `/v3/watch` stream; resolves once etcd has created it. */
export async function startHttpWatch(transport: HttpTransport, request: WireWatchRequest, handlers: WireWatchHandlers): Promise<WireWatch> {
  const watch = new HttpWatch(transport, request, handlers);
  await watch.connect();
  return watch;
}

/**
 * A watch over the JSON gateway. A stream that breaks (etcd restarted, connection reset) is opened
 * again from the first revision not yet delivered, so a reconnect neither loses nor repeats events;
 * that revision is known from the start (the created response's header says where "now" was).
 * A compacted start revision cancels the watch with `compact_revision` set: reported as 'compacted'.
 */
class HttpWatch implements WireWatch {
  /** The first revision this watch still owes its consumer. */
  private owed: string | undefined;
  private current: ClientRequest | undefined;
  private cancelled = false;
  private ended = false;
  private connectsWithoutData = 0;

  constructor(
    private readonly transport: HttpTransport,
    private readonly request: WireWatchRequest,
    private readonly handlers: WireWatchHandlers,
  ) {
    this.owed = request.startRevision;
  }

  cancel(): Promise<void> {
    this.cancelled = true;
    this.current?.destroy();
    this.current = undefined;
    return Promise.resolve();
  }

  /** Opens one stream; resolves when etcd created the watch, rejects if it never did. */
  async connect(): Promise<void> {
    const { key, end } = this.request;
    const handle = await this.transport.stream('/v3/watch', {
      create_request: {
        key: key.toString('base64'),
        ...(end === undefined ? {} : { range_end: end.toString('base64') }),
        ...(this.owed === undefined ? {} : { start_revision: this.owed }),
        prev_kv: true,
      },
    });
    if (this.cancelled) {
      handle.request.destroy();
      return;
    }
    this.current = handle.request;
    await this.read(handle.request, handle.response, handle.endpoint);
  }

  private read(request: ClientRequest, response: IncomingMessage, endpoint: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      let created = false;
      let buffer = '';
      const fail = (err: EtcdWireError): void => {
        request.destroy();
        if (created) this.fail(err);
        else reject(err);
      };
      const onLine = (line: string): void => {
        let message: WatchLine;
        try {
          message = JSON.parse(line) as WatchLine;
        } catch {
          fail(new EtcdWireError('unavailable', endpoint, `etcd at ${endpoint} sent a watch message that is not JSON`));
          return;
        }
        if (message.error !== undefined) {
          const e = message.error;
          fail(gatewayError({ ...(e.message === undefined ? {} : { message: e.message }), ...(e.grpc_code === undefined ? {} : { code: e.grpc_code }) }, endpoint, e.http_code ?? 0));
          return;
        }
        const res = message.result;
        if (res === undefined) return;
        if (res.created === true && !created) {
          created = true;
          // "From now" is the revision after the one etcd created the watch at: a reconnect resumes there.
          this.owed ??= (BigInt(revisionOf(res)) + 1n).toString();
          this.connectsWithoutData += 1;
          if (this.connectsWithoutData > MAX_CONNECTS_WITHOUT_DATA) {
            this.fail(new EtcdWireError('unavailable', endpoint, `the watch stream broke ${MAX_CONNECTS_WITHOUT_DATA} times in a row before delivering anything; list again`));
            request.destroy();
          }
          resolve();
        }
        if (res.canceled === true && /invalid auth token/.test(res.cancel_reason ?? '')) {
          // etcd restarted and forgot the token the stream was opened with: authenticate again and
          // reopen from `owed` (the stream's close does that; five in a row without data end it).
          this.transport.forgetToken();
          request.destroy();
          return;
        }
        if (res.canceled === true) {
          const compacted = res.compact_revision !== undefined && res.compact_revision !== '0';
          fail(
            compacted
              ? new EtcdWireError('compacted', endpoint, `etcd at ${endpoint}: required revision has been compacted (now at ${res.compact_revision ?? ''})`)
              : new EtcdWireError('unavailable', endpoint, `etcd at ${endpoint} cancelled the watch${res.cancel_reason === undefined ? '' : `: ${res.cancel_reason}`}`),
          );
          return;
        }
        const events = res.events ?? [];
        if (events.length === 0) return;
        this.connectsWithoutData = 0;
        const mapped = events.map(toEvent);
        const last = mapped[mapped.length - 1];
        if (last !== undefined) this.owed = (BigInt(last.kv.modRevision) + 1n).toString();
        if (!this.cancelled && !this.ended) this.handlers.onEvents(mapped);
      };
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        buffer += chunk;
        for (let nl = buffer.indexOf('\n'); nl >= 0; nl = buffer.indexOf('\n')) {
          const line = buffer.slice(0, nl).trim();
          buffer = buffer.slice(nl + 1);
          if (line !== '') onLine(line);
          if (request.destroyed) return;
        }
      });
      const broken = (): void => {
        if (!created) {
          reject(new EtcdWireError('unavailable', endpoint, `etcd at ${endpoint} closed the watch stream before creating the watch`));
          return;
        }
        if (this.current === request) this.current = undefined;
        if (!this.cancelled && !this.ended) void this.reconnect();
      };
      response.once('close', broken);
      // A cut stream reports through 'close'; its 'error' needs a listener so it is not unhandled.
      response.on('error', () => undefined);
    });
  }

  /** After a stream broke: open it again from `owed`, backing off while etcd is unreachable. */
  private async reconnect(): Promise<void> {
    // A stream that broke before delivering anything (etcd still dropping fresh tokens after a
    // restart, say) is not reopened at once: back off by how many did so in a row.
    if (this.connectsWithoutData > 0) await sleep(backoffDelay(RECONNECT_BACKOFF, this.connectsWithoutData - 1));
    try {
      await retry(() => (this.cancelled || this.ended ? Promise.resolve() : this.connect()), {
        attempts: Infinity,
        backoff: RECONNECT_BACKOFF,
        isRetryable: (err) => err instanceof EtcdWireError && err.kind === 'unavailable',
      });
    } catch (err) {
      this.fail(err);
    }
  }

  private fail(err: unknown): void {
    if (this.cancelled || this.ended) return;
    this.ended = true;
    this.current?.destroy();
    this.handlers.onFailure(err);
  }
}

function toEvent(e: JsonEvent): WireWatchEvent {
  return { type: e.type === 'DELETE' ? 'delete' : 'put', kv: fromJsonKv(e.kv ?? {}), previous: e.prev_kv === undefined ? undefined : fromJsonKv(e.prev_kv) };
}

import type { EtcdConnection } from './connection.js';
import type { EtcdWire, WireCompare, WireKv, WireOp, WireRange, WireTxnResult, WireWatch, WireWatchHandlers, WireWatchRequest } from './etcd-wire.js';
import { HttpTransport } from './http-transport.js';
import { startHttpWatch } from './http-watch.js';

/** etcd's JSON for a key-value: bytes in base64, int64s as decimal strings, zero values omitted. */
export interface JsonKv {
  readonly key?: string;
  readonly value?: string;
  readonly mod_revision?: string;
  readonly create_revision?: string;
}

interface JsonHeader {
  readonly header?: { readonly revision?: string };
}

interface JsonRangeResponse extends JsonHeader {
  readonly kvs?: readonly JsonKv[];
}

interface JsonTxnResponse extends JsonHeader {
  readonly succeeded?: boolean;
  readonly responses?: readonly { readonly response_range?: JsonRangeResponse }[];
}

interface JsonDeleteResponse extends JsonHeader {
  readonly deleted?: string;
}

const b64 = (b: Buffer): string => b.toString('base64');

/** Base64 of the shared key buffers (etcd-kv.ts `wireBytes`): each key is encoded once while in use. */
const keyTexts = new WeakMap<Buffer, string>();

function keyB64(key: Buffer): string {
  let text = keyTexts.get(key);
  if (text === undefined) {
    text = b64(key);
    keyTexts.set(key, text);
  }
  return text;
}

export function fromJsonKv(kv: JsonKv): WireKv {
  return {
    key: Buffer.from(kv.key ?? '', 'base64'),
    value: Buffer.from(kv.value ?? '', 'base64').toString('utf8'),
    modRevision: kv.mod_revision ?? '0',
    createRevision: kv.create_revision ?? '0',
  };
}

export const revisionOf = (res: JsonHeader): string => res.header?.revision ?? '0';

function jsonRange(r: WireRange): object {
  return {
    key: keyB64(r.key),
    ...(r.end === undefined ? {} : { range_end: keyB64(r.end) }),
    ...(r.revision === undefined ? {} : { revision: r.revision }),
    ...(r.limit === undefined ? {} : { limit: String(r.limit) }),
  };
}

function jsonOp(o: WireOp): object {
  switch (o.op) {
    case 'range':
      return { request_range: jsonRange(o.range) };
    case 'put':
      return { request_put: { key: keyB64(o.key), value: b64(o.value) } };
    case 'delete':
      return { request_delete_range: { key: keyB64(o.key) } };
  }
}

/**
 * The JSON of a txn request: `JSON.stringify` of `{ compare, success, failure }` in etcd's JSON
 * form (`compareText`, `jsonOp`), written without passing the put values through `JSON.stringify`. A
 * value is base64 (letters, digits, `+`, `/`, `=`: nothing JSON escapes), so it goes into the
 * text as it is; the native writer's scan of a block's 10 KB of base64 for characters to escape
 * cost about 40 µs per request (design/ipam-datastore.md, "Allocation cost: the fourth round
 * (2026-12-02)"). Everything else is written by `JSON.stringify` as before.
 */
export function txnJson(compares: readonly WireCompare[], success: readonly WireOp[], failure: readonly WireOp[]): string {
  const ops = (list: readonly WireOp[]): string => {
    let out = '[';
    for (const o of list) {
      if (out.length > 1) out += ',';
      out += o.op === 'put' ? `{"request_put":{"key":"${keyB64(o.key)}","value":"${b64(o.value)}"}}` : JSON.stringify(jsonOp(o));
    }
    return `${out}]`;
  };
  let compare = '[';
  for (const c of compares) compare += (compare.length > 1 ? ',' : '') + compareText(c);
  return `{"compare":${compare}],"success":${ops(success)},"failure":${ops(failure)}}`;
}

const DIGITS = /^[0-9]{1,20}$/;

/**
 * `JSON.stringify` of etcd's JSON form of a compare (`key`, `range_end`, `target`, `result`, then
 * `mod_revision` or `create_revision`), written directly: a commit carries up to a dozen compares, and
 * building each as an object of spreads and a computed key for the native writer to walk cost
 * about as much as writing it (design/ipam-core.md, "Allocation cost: the ninth round
 * (2026-12-02)"). Keys are base64 (nothing JSON escapes); the revision goes through
 * `JSON.stringify` unless it is all digits, as etcd's revisions are.
 */
function compareText(c: WireCompare): string {
  const end = c.end === undefined ? '' : `,"range_end":"${keyB64(c.end)}"`;
  const target = c.target === 'mod' ? '"target":"MOD"' : '"target":"CREATE"';
  const result = c.result === 'equal' ? '"result":"EQUAL"' : '"result":"LESS"';
  const revision = DIGITS.test(c.revision) ? `"${c.revision}"` : JSON.stringify(c.revision);
  return `{"key":"${keyB64(c.key)}"${end},${target},${result},"${c.target === 'mod' ? 'mod_revision' : 'create_revision'}":${revision}}`;
}

/**
 * The etcd client over etcd's JSON gateway (`/v3/kv/range`, `/v3/kv/txn`, `/v3/kv/deleterange`,
 * `/v3/watch`) with node:http(s): nothing to load but Node itself, which is what a CNI call needs
 * (design/ipam-datastore.md, "etcd clients").
 */
export class HttpEtcdWire implements EtcdWire {
  private readonly transport: HttpTransport;

  constructor(connection: EtcdConnection) {
    this.transport = new HttpTransport(connection);
  }

  get target(): string {
    return this.transport.target;
  }

  async range(range: WireRange): Promise<{ kvs: WireKv[]; revision: string }> {
    const res = await this.transport.call<JsonRangeResponse>('/v3/kv/range', jsonRange(range));
    return { kvs: (res.kvs ?? []).map(fromJsonKv), revision: revisionOf(res) };
  }

  async txn(compares: readonly WireCompare[], success: readonly WireOp[], failure: readonly WireOp[]): Promise<WireTxnResult> {
    const res = await this.transport.callWithJson<JsonTxnResponse>('/v3/kv/txn', txnJson(compares, success, failure));
    return {
      succeeded: res.succeeded === true,
      revision: revisionOf(res),
      responses: (res.responses ?? []).map((r) => (r.response_range?.kvs ?? []).map(fromJsonKv)),
    };
  }

  async deleteKey(key: Buffer): Promise<{ deleted: number; revision: string }> {
    const res = await this.transport.call<JsonDeleteResponse>('/v3/kv/deleterange', { key: b64(key) });
    return { deleted: Number(res.deleted ?? '0'), revision: revisionOf(res) };
  }

  watch(request: WireWatchRequest, handlers: WireWatchHandlers): Promise<WireWatch> {
    return startHttpWatch(this.transport, request, handlers);
  }

  close(): void {
    this.transport.close();
  }
}

import { rootCertificates } from 'node:tls';
import { CompareResult, CompareTarget, Etcd3, type ICompare, type IOptions, type IKeyValue, type IRangeRequest, type IRequestOp } from 'etcd3';
import { endpointName, type EtcdConnection } from './connection.js';
import type { EtcdWire, WireCompare, WireKv, WireOp, WireRange, WireTxnResult, WireWatch, WireWatchHandlers, WireWatchRequest } from './etcd-wire.js';
import { grpcCall } from './grpc-errors.js';
import { startGrpcWatch } from './grpc-watch.js';

export interface GrpcOptions {
  /** Largest gRPC message accepted from etcd. */
  readonly maxReceiveMessageBytes: number;
}

export function fromGrpcKv(kv: IKeyValue): WireKv {
  return { key: kv.key, value: kv.value.toString('utf8'), modRevision: kv.mod_revision, createRevision: kv.create_revision };
}

function grpcRange(r: WireRange): IRangeRequest {
  return {
    key: r.key,
    ...(r.end === undefined ? {} : { range_end: r.end }),
    ...(r.revision === undefined ? {} : { revision: r.revision }),
    ...(r.limit === undefined ? {} : { limit: r.limit }),
  };
}

function grpcCompare(c: WireCompare): ICompare {
  const target = c.target === 'mod' ? CompareTarget.Mod : CompareTarget.Create;
  const result = c.result === 'equal' ? CompareResult.Equal : CompareResult.Less;
  const revision = c.target === 'mod' ? { mod_revision: c.revision } : { create_revision: c.revision };
  return { key: c.key, ...(c.end === undefined ? {} : { range_end: c.end }), target, result, ...revision };
}

function grpcOp(o: WireOp): IRequestOp {
  switch (o.op) {
    case 'range':
      return { request_range: grpcRange(o.range) };
    case 'put':
      return { request_put: { key: o.key, value: o.value } };
    case 'delete':
      return { request_delete_range: { key: o.key } };
  }
}

/**
 * The etcd client over the etcd3 library (gRPC + protobufjs). Loaded only when `client: 'grpc'` is
 * chosen: its module graph costs ~150 ms to load (design/ipam-datastore.md, "etcd clients").
 */
export class GrpcEtcdWire implements EtcdWire {
  readonly client: Etcd3;
  readonly target: string;
  private readonly options: IOptions;

  constructor(connection: EtcdConnection, options: GrpcOptions) {
    const { tls, auth, callTimeoutMs } = connection;
    this.target = connection.endpoints.map(endpointName).join(',');
    this.options = {
      hosts: connection.endpoints.map(endpointName),
      ...(tls === undefined
        ? {}
        : {
            credentials: {
              rootCertificate: tls.ca ?? Buffer.from(rootCertificates.join('\n')),
              ...(tls.key === undefined ? {} : { privateKey: tls.key }),
              ...(tls.cert === undefined ? {} : { certChain: tls.cert }),
            },
          }),
      ...(auth === undefined ? {} : { auth: { username: auth.username, password: auth.password, callOptions: () => ({ deadline: Date.now() + callTimeoutMs }) } }),
      grpcOptions: {
        'grpc.max_receive_message_length': options.maxReceiveMessageBytes,
        ...(tls?.serverName === undefined ? {} : { 'grpc.ssl_target_name_override': tls.serverName, 'grpc.default_authority': tls.serverName }),
      },
      // Streams (watches) live until cancelled; every other call gets a deadline so a hung etcd
      // surfaces as DatastoreUnavailableError instead of a hung CNI invocation.
      defaultCallOptions: (context) => (context.isStream ? {} : { deadline: Date.now() + callTimeoutMs }),
    };
    this.client = new Etcd3(this.options);
  }

  /**
   * Another client with the same settings: its own connection, watch stream and auth token. A watch
   * whose shared stream holds a token etcd forgot (etcd3 keeps that stream open) moves to one.
   */
  newClient(): Etcd3 {
    return new Etcd3(this.options);
  }

  range(range: WireRange): Promise<{ kvs: WireKv[]; revision: string }> {
    return grpcCall(this.target, async () => {
      const res = await this.client.kv.range(grpcRange(range));
      return { kvs: res.kvs.map(fromGrpcKv), revision: res.header.revision };
    });
  }

  txn(compares: readonly WireCompare[], success: readonly WireOp[], failure: readonly WireOp[]): Promise<WireTxnResult> {
    return grpcCall(this.target, async () => {
      const res = await this.client.kv.txn({ compare: compares.map(grpcCompare), success: success.map(grpcOp), failure: failure.map(grpcOp) });
      return {
        succeeded: res.succeeded,
        revision: res.header.revision,
        // etcd3 hands every op's response; only range responses carry keys.
        responses: res.responses.map((r) => ((r as { response_range?: { kvs: IKeyValue[] } }).response_range?.kvs ?? []).map(fromGrpcKv)),
      };
    });
  }

  deleteKey(key: Buffer): Promise<{ deleted: number; revision: string }> {
    return grpcCall(this.target, async () => {
      const res = await this.client.kv.deleteRange({ key });
      return { deleted: Number(res.deleted), revision: res.header.revision };
    });
  }

  watch(request: WireWatchRequest, handlers: WireWatchHandlers): Promise<WireWatch> {
    return startGrpcWatch(this, request, handlers);
  }

  close(): void {
    this.client.close();
  }
}

/** The grpc wire; its module is the only one that imports etcd3 (see etcd-datastore.ts). */
export function createGrpcWire(connection: EtcdConnection, options: GrpcOptions): GrpcEtcdWire {
  return new GrpcEtcdWire(connection, options);
}

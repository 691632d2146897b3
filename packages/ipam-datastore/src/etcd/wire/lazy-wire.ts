import type { EtcdWire, WireCompare, WireKv, WireOp, WireRange, WireTxnResult, WireWatch, WireWatchHandlers, WireWatchRequest } from './etcd-wire.js';

/**
 * A wire whose implementation is loaded on first use: `createEtcdDatastore` stays synchronous
 * while the grpc client's module (and etcd3 with it) is only imported when that client is chosen.
 */
export class LazyWire implements EtcdWire {
  private loaded: Promise<EtcdWire> | undefined;
  private wire: EtcdWire | undefined;
  private closed = false;

  constructor(
    readonly target: string,
    private readonly load: () => Promise<EtcdWire>,
  ) {}

  private get(): Promise<EtcdWire> {
    this.loaded ??= this.load().then((wire) => {
      this.wire = wire;
      if (this.closed) wire.close();
      return wire;
    });
    return this.loaded;
  }

  async range(range: WireRange): Promise<{ kvs: WireKv[]; revision: string }> {
    return (await this.get()).range(range);
  }

  async txn(compares: readonly WireCompare[], success: readonly WireOp[], failure: readonly WireOp[]): Promise<WireTxnResult> {
    return (await this.get()).txn(compares, success, failure);
  }

  async deleteKey(key: Buffer): Promise<{ deleted: number; revision: string }> {
    return (await this.get()).deleteKey(key);
  }

  async watch(request: WireWatchRequest, handlers: WireWatchHandlers): Promise<WireWatch> {
    return (await this.get()).watch(request, handlers);
  }

  close(): void {
    this.closed = true;
    this.wire?.close();
  }
}

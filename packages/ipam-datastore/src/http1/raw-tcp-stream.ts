import { getSystemErrorName } from 'node:util';
import { armAlarm } from '@ipamkit/models';
import { connectError, type ByteStream, type ByteStreamEvents } from './byte-stream.js';

/**
 * libuv's TCP handle through Node's `tcp_wrap` and `stream_wrap` bindings, for plain connections to
 * an IP address. `node:net` (with the streams it is built on) costs a short-lived process several
 * milliseconds to load, `node:http` on top of it about twice that (design/ipam-datastore.md, "A small
 * HTTP/1.1 client"). Only the calls below are used; the binding is checked for them and, where it is
 * missing or shaped otherwise, `rawTcpBinding()` is null and the caller uses `node:net`.
 */
interface RawTcp {
  connect(req: RawConnectRequest, address: string, port: number): number;
  connect6(req: RawConnectRequest, address: string, port: number): number;
  readStart(): number;
  writeBuffer(req: RawWriteRequest, bytes: Buffer): number;
  setNoDelay(on: boolean): number;
  ref(): void;
  unref(): void;
  close(callback?: () => void): void;
  onread: ((arrayBuffer: ArrayBuffer | undefined) => void) | undefined;
}

interface RawConnectRequest {
  oncomplete: ((status: number) => void) | undefined;
}

interface RawWriteRequest {
  handle: RawTcp | undefined;
  async: boolean;
  oncomplete: ((status: number) => void) | undefined;
}

interface RawTcpBinding {
  readonly TCP: new (type: number) => RawTcp;
  readonly TCPConnectWrap: new () => RawConnectRequest;
  readonly constants: { readonly SOCKET: number };
}

interface RawStreamBinding {
  readonly WriteWrap: new () => RawWriteRequest;
  /** Where libuv's read callbacks leave the byte count (or error) and the offset into the buffer. */
  readonly streamBaseState: Int32Array;
  readonly kReadBytesOrError: number;
  readonly kArrayBufferOffset: number;
}

export interface RawBindings {
  readonly tcp: RawTcpBinding;
  readonly stream: RawStreamBinding;
}

function isTcpBinding(v: unknown): v is RawTcpBinding {
  if (typeof v !== 'object' || v === null) return false;
  const b = v as Record<string, unknown>;
  const constants = b['constants'] as Record<string, unknown> | undefined;
  return typeof b['TCP'] === 'function' && typeof b['TCPConnectWrap'] === 'function' && typeof constants?.['SOCKET'] === 'number';
}

function isStreamBinding(v: unknown): v is RawStreamBinding {
  if (typeof v !== 'object' || v === null) return false;
  const b = v as Record<string, unknown>;
  return typeof b['WriteWrap'] === 'function' && b['streamBaseState'] instanceof Int32Array && typeof b['kReadBytesOrError'] === 'number' && typeof b['kArrayBufferOffset'] === 'number';
}

let bindings: RawBindings | null | undefined;

/** The two bindings, when this Node offers them through `process.binding` in the expected shape. */
export function rawTcpBindings(): RawBindings | null {
  if (bindings !== undefined) return bindings;
  try {
    const node = process as unknown as { binding(name: string): unknown };
    const tcp = node.binding('tcp_wrap');
    const stream = node.binding('stream_wrap');
    bindings = isTcpBinding(tcp) && isStreamBinding(stream) ? { tcp, stream } : null;
  } catch {
    bindings = null;
  }
  return bindings;
}

function uvError(status: number, syscall: string, target: string): NodeJS.ErrnoException {
  const code = getSystemErrorName(status);
  return Object.assign(connectError(code, `${syscall} ${code} ${target}`), { errno: status, syscall });
}

/** Connects to `address` (an IPv4 or IPv6 literal) and `port`; rejects with ECONNREFUSED and the like. */
export function connectRawTcp(b: RawBindings, address: string, port: number, timeoutMs: number, events: ByteStreamEvents): Promise<ByteStream> {
  const target = `${address}:${port}`;
  const handle = new b.tcp.TCP(b.tcp.constants.SOCKET);
  const state = b.stream.streamBaseState;
  let closed = false;
  const writes = new Set<RawWriteRequest>();

  const close = (error: NodeJS.ErrnoException | undefined, tell: boolean): void => {
    if (closed) return;
    closed = true;
    handle.close();
    writes.clear();
    if (tell) events.onClose(error);
  };

  const stream: ByteStream = {
    write(bytes) {
      if (closed) return;
      const req = new b.stream.WriteWrap();
      req.handle = handle;
      req.async = false;
      req.oncomplete = (status) => {
        writes.delete(req);
        if (status < 0) close(uvError(status, 'write', target), true);
      };
      const status = handle.writeBuffer(req, bytes);
      if (status < 0) close(uvError(status, 'write', target), true);
      // Kept until libuv is done with it (a write that did not complete at once finishes later).
      else writes.add(req);
    },
    destroy() {
      close(undefined, false);
    },
    setRef(ref) {
      if (closed) return;
      if (ref) handle.ref();
      else handle.unref();
    },
  };

  return new Promise((resolve, reject) => {
    const timer = armAlarm(timeoutMs, () => {
      close(undefined, false);
      reject(connectError('ETIMEDOUT', `connect ETIMEDOUT ${target} (no connection within ${timeoutMs} ms)`));
    });
    const req = new b.tcp.TCPConnectWrap();
    req.oncomplete = (status) => {
      timer.cancel();
      if (closed) return;
      if (status < 0) {
        close(undefined, false);
        reject(uvError(status, 'connect', target));
        return;
      }
      handle.onread = (arrayBuffer) => {
        const n = state[b.stream.kReadBytesOrError] ?? 0;
        if (n > 0 && arrayBuffer !== undefined) {
          events.onData(Buffer.from(arrayBuffer, state[b.stream.kArrayBufferOffset] ?? 0, n));
        } else if (n < 0) {
          close(getSystemErrorName(n) === 'EOF' ? undefined : uvError(n, 'read', target), true);
        }
      };
      const started = handle.readStart();
      if (started < 0) {
        close(undefined, false);
        reject(uvError(started, 'read', target));
        return;
      }
      resolve(stream);
    };
    handle.setNoDelay(true);
    const status = address.includes(':') ? handle.connect6(req, address, port) : handle.connect(req, address, port);
    if (status < 0) {
      timer.cancel();
      close(undefined, false);
      reject(uvError(status, 'connect', target));
    }
  });
}

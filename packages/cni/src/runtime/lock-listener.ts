import type { Socket } from 'node:net';
import { getSystemErrorName } from 'node:util';

/**
 * The lock held: a socket listening on the lock's address. Letting go closes it and every waiter's
 * connection to it, so each waiter learns at once; a holder that dies has them closed by the kernel.
 */
export interface HeldLock {
  /** Stops listening and hangs up on every waiter; `closed` runs once the address is free. */
  release(closed: () => void): void;
}

/** The slice of libuv's pipe handle (Node's `pipe_wrap` binding) the lock uses: listen, and watch a holder. */
interface RawPipe {
  bind(address: string): number;
  listen(backlog: number): number;
  connect(req: RawPipeConnect, address: string): unknown;
  readStart(): number;
  unref(): void;
  close(callback?: () => void): void;
  onconnection: ((status: number, client: RawPipe | undefined) => void) | undefined;
  onread: (() => void) | undefined;
}

interface RawPipeConnect {
  oncomplete: ((status: number) => void) | undefined;
}

interface RawPipeBinding {
  readonly Pipe: new (type: number) => RawPipe;
  readonly PipeConnectWrap?: new () => RawPipeConnect;
  readonly constants: { readonly SERVER: number; readonly SOCKET?: number };
}

const BACKLOG = 511;

function isRawPipeBinding(value: unknown): value is RawPipeBinding {
  if (typeof value !== 'object' || value === null) return false;
  const { Pipe, constants } = value as { Pipe?: unknown; constants?: unknown };
  return typeof Pipe === 'function' && typeof constants === 'object' && constants !== null && typeof (constants as { SERVER?: unknown }).SERVER === 'number';
}

let rawPipes: RawPipeBinding | null | undefined;

/**
 * libuv's pipe handle, when this Node still offers it through `process.binding`. A lock needs only
 * bind, listen and close, and `node:net` would load streams and, for `listen`, the cluster module
 * with child_process and dgram: several milliseconds of every CNI call (design/cni.md, "Start-up
 * cost"). Null where it is missing or not shaped as expected: the caller uses `node:net`.
 */
function rawPipeBinding(): RawPipeBinding | null {
  if (rawPipes !== undefined) return rawPipes;
  try {
    const binding: unknown = (process as unknown as { binding(name: string): unknown }).binding('pipe_wrap');
    rawPipes = isRawPipeBinding(binding) ? binding : null;
  } catch {
    rawPipes = null;
  }
  return rawPipes;
}

/** The error a failed bind or listen stands for, with Node's usual `code`. */
function uvError(status: number, what: string): NodeJS.ErrnoException {
  const code = getSystemErrorName(status);
  return Object.assign(new Error(`${what} ${code}`), { code, errno: status, syscall: what });
}

function listenRaw(binding: RawPipeBinding, address: string): HeldLock | undefined {
  const server = new binding.Pipe(binding.constants.SERVER);
  const waiters = new Set<RawPipe>();
  server.onconnection = (status, client) => {
    if (status === 0 && client !== undefined) {
      client.unref();
      waiters.add(client);
    }
  };
  let step = 'bind';
  let status = server.bind(address);
  if (status === 0) {
    step = 'listen';
    status = server.listen(BACKLOG);
  }
  if (status !== 0) {
    server.close();
    if (getSystemErrorName(status) === 'EADDRINUSE') return undefined;
    throw uvError(status, step);
  }
  server.unref();
  return {
    release(closed) {
      for (const waiter of waiters) waiter.close();
      server.close(closed);
    },
  };
}

async function listenNet(address: string): Promise<HeldLock | undefined> {
  // Loaded only here: see rawPipeBinding.
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const waiters = new Set<Socket>();
    const server = createServer((socket) => {
      socket.unref();
      socket.on('error', () => undefined);
      socket.on('close', () => waiters.delete(socket));
      waiters.add(socket);
    });
    server.once('error', (err) => {
      if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') resolve(undefined);
      else reject(err);
    });
    server.listen({ path: address }, () => {
      server.unref();
      resolve({
        release(closed) {
          server.close(closed);
          for (const waiter of waiters) waiter.destroy();
        },
      });
    });
  });
}

/**
 * Resolves when the holder listening on `address` lets go (our connection to it closes, or is
 * refused: nobody listens), or after `ms`. Connects with libuv's pipe handle where Node offers it,
 * so a waiting call does not load `node:net` either; the holder never writes, so anything read is
 * the end.
 */
export async function holderReleased(address: string, ms: number, options: { viaNet?: boolean } = {}): Promise<void> {
  const binding = options.viaNet === true || process.platform !== 'linux' ? null : rawPipeBinding();
  const Connect = binding?.PipeConnectWrap;
  const socketType = binding?.constants.SOCKET;
  if (binding === null || Connect === undefined || socketType === undefined) return holderReleasedNet(address, ms);
  return new Promise((resolve) => {
    const pipe = new binding.Pipe(socketType);
    let done = false;
    const finish = (): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      pipe.close();
      resolve();
    };
    const timer = setTimeout(finish, ms);
    timer.unref();
    const req = new Connect();
    req.oncomplete = (status) => {
      if (status < 0 || done) {
        finish();
        return;
      }
      pipe.onread = finish;
      if (pipe.readStart() < 0) finish();
    };
    pipe.connect(req, address);
  });
}

async function holderReleasedNet(address: string, ms: number): Promise<void> {
  // Loaded only by a call that has to wait and has no pipe handle (design/cni.md, "Start-up cost").
  const { connect } = await import('node:net');
  return new Promise((resolve) => {
    const socket = connect({ path: address });
    const done = (): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve();
    };
    const timer = setTimeout(done, ms);
    timer.unref();
    socket.on('error', done);
    socket.on('close', done);
  });
}

/**
 * Listens on `address` (an abstract Unix socket name or a Windows pipe): the lock when we now hold
 * it, undefined when another holder has it. Uses libuv's pipe handle directly on Linux when Node
 * offers it, else `node:net`; `viaNet` forces the latter (tests compare the two).
 */
export async function listenForLock(address: string, options: { viaNet?: boolean } = {}): Promise<HeldLock | undefined> {
  const binding = options.viaNet === true || process.platform !== 'linux' ? null : rawPipeBinding();
  return binding === null ? listenNet(address) : listenRaw(binding, address);
}

import type { Socket } from 'node:net';
import { armAlarm, definedFields } from '@ipamkit/models';
import { connectError, type ByteStream, type ByteStreamEvents, type ConnectTarget } from './byte-stream.js';

/**
 * A `node:net` socket, or a `node:tls` one for TLS targets; each module is loaded on first use, so a
 * process that talks plain TCP to an IP address never loads either (design/ipam-datastore.md, "A
 * small HTTP/1.1 client").
 */
export async function connectSocket(target: ConnectTarget, events: ByteStreamEvents): Promise<ByteStream> {
  const socket = await open(target);
  let closed = false;
  const close = (error: NodeJS.ErrnoException | undefined, tell: boolean): void => {
    if (closed) return;
    closed = true;
    socket.destroy();
    if (tell) events.onClose(error);
  };
  socket.on('data', (bytes: Buffer) => events.onData(bytes));
  socket.on('end', () => close(undefined, true));
  socket.on('close', () => close(undefined, true));
  socket.on('error', (err: NodeJS.ErrnoException) => close(err, true));
  return {
    write(bytes) {
      if (!closed) socket.write(bytes);
    },
    destroy() {
      close(undefined, false);
    },
    setRef(ref) {
      if (closed) return;
      if (ref) socket.ref();
      else socket.unref();
    },
  };
}

async function open(target: ConnectTarget): Promise<Socket> {
  const { host, port, tls, timeoutMs, tlsSessions } = target;
  let socket: Socket;
  let ready: string;
  if (tls === undefined) {
    const net = await import('node:net');
    socket = net.connect({ host, port, noDelay: true });
    ready = 'connect';
  } else {
    const { connect } = await import('node:tls');
    // The certificate is checked against the server name when there is one (SNI carries no IP).
    const servername = tls.servername ?? (isIpLiteral(host) ? undefined : host);
    socket = connect({
      host,
      port,
      ALPNProtocols: ['http/1.1'],
      rejectUnauthorized: tls.rejectUnauthorized !== false,
      ...definedFields({ ca: tls.ca, cert: tls.cert, key: tls.key, servername, session: tlsSessions?.session }),
    });
    // The server's tickets: the next connection to this origin resumes instead of a full handshake.
    if (tlsSessions !== undefined) socket.on('session', (session: Buffer) => (tlsSessions.session = session));
    ready = 'secureConnect';
  }
  return new Promise((resolve, reject) => {
    const timer = armAlarm(timeoutMs, () => {
      socket.destroy();
      reject(connectError('ETIMEDOUT', `connect ETIMEDOUT ${host}:${port} (no connection within ${timeoutMs} ms)`));
    });
    socket.once(ready, () => {
      timer.cancel();
      socket.removeListener('error', failed);
      resolve(socket);
    });
    const failed = (err: Error): void => {
      timer.cancel();
      socket.destroy();
      reject(err);
    };
    socket.once('error', failed);
  });
}

/**
 * An IPv4 dotted quad (four groups of one to three digits) or an IPv6 literal (brackets removed,
 * hex digits, colons and dots): what libuv connects to without a lookup. Read by hand, without
 * compiling a regular expression (design/ipam-datastore.md, "A small HTTP/1.1 client").
 */
export function isIpLiteral(host: string): boolean {
  const groups = host.split('.');
  const digitGroup = (g: string): boolean => {
    if (g.length < 1 || g.length > 3) return false;
    for (let i = 0; i < g.length; i += 1) if (g.charCodeAt(i) < 0x30 || g.charCodeAt(i) > 0x39) return false;
    return true;
  };
  if (groups.length === 4 && groups.every(digitGroup)) return true;
  if (!host.includes(':')) return false;
  for (let i = 0; i < host.length; i += 1) {
    const c = host.charCodeAt(i);
    const hex = (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
    if (!hex && c !== 0x3a && c !== 0x2e) return false;
  }
  return true;
}

import net from 'node:net';
import type { AddressInfo } from 'node:net';

export type ProxyMode = 'up' | 'down' | 'stall';

/** A TCP proxy in front of the test API server that a test can take down, stall, or bring back. */
export interface FlappingProxy {
  readonly port: number;
  setMode(mode: ProxyMode): void;
  close(): Promise<void>;
}

export async function startFlappingProxy(targetPort: number): Promise<FlappingProxy> {
  let mode: ProxyMode = 'up';
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    if (mode === 'down') {
      client.destroy();
      return;
    }
    if (mode === 'stall') return;
    const upstream = net.connect(targetPort, '127.0.0.1');
    sockets.add(upstream);
    upstream.on('close', () => {
      sockets.delete(upstream);
      client.destroy();
    });
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    setMode(next) {
      mode = next;
      if (next !== 'up') for (const s of sockets) s.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on (the API server is unreachable). */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

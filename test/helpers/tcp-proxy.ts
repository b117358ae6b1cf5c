/**
 * A TCP proxy on 127.0.0.1 in front of the test PostgreSQL server, so a test can make the server "go
 * away" mid-session (every connection cut, new ones refused) and come back on the same port, without
 * stopping the server other test files share.
 */
import { connect, createServer, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  readonly port: number;
  /** Destroys every open connection and stops listening: clients see the server vanish. */
  cut(): Promise<void>;
  /** Listens again on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const makeServer = (): Server =>
    createServer((client) => {
      const upstream = connect(targetPort, '127.0.0.1');
      sockets.add(client);
      sockets.add(upstream);
      const drop = (): void => {
        client.destroy();
        upstream.destroy();
        sockets.delete(client);
        sockets.delete(upstream);
      };
      client.on('error', drop).on('close', drop);
      upstream.on('error', drop).on('close', drop);
      client.pipe(upstream);
      upstream.pipe(client);
    });
  const listen = (server: Server, port: number): Promise<number> =>
    new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        const address = server.address();
        resolve(typeof address === 'object' && address !== null ? address.port : port);
      });
    });
  let server: Server | undefined = makeServer();
  const port = await listen(server, 0);
  const stop = async (): Promise<void> => {
    const current = server;
    server = undefined;
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    if (current !== undefined) await new Promise<void>((resolve) => current.close(() => resolve()));
  };
  return {
    port,
    cut: stop,
    restore: async () => {
      if (server !== undefined) return;
      server = makeServer();
      await listen(server, port);
    },
    close: stop,
  };
}

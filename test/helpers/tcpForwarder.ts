/**
 * A TCP forwarder on a loopback port, for tests: what a virtual IP or a proxy in front of a
 * server does when it moves to another server (the connections through it drop, new ones reach
 * the other), and a network cut (every connection dropped, new ones refused).
 */
import net from 'node:net';

export interface TcpForwarder {
  port: number;
  /** Sends new connections to `port` from now on and drops the current ones (a virtual IP moved). */
  retarget(port: number): void;
  /** Drops every connection and refuses new ones until retargeted. */
  cut(): void;
  close(): Promise<void>;
}

/** Forwards connections to 127.0.0.1:`targetPort` until told otherwise. */
export async function startForwarder(targetPort: number): Promise<TcpForwarder> {
  let target: number | undefined = targetPort;
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    if (target === undefined) {
      client.destroy();
      return;
    }
    const upstream = net.connect(target, '127.0.0.1');
    const drop = () => {
      client.destroy();
      upstream.destroy();
      open.delete(client);
      open.delete(upstream);
    };
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('error', drop).on('close', drop);
    }
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const dropAll = () => {
    for (const socket of open) socket.destroy();
    open.clear();
  };
  return {
    port: (server.address() as net.AddressInfo).port,
    retarget(port) {
      target = port;
      dropAll();
    },
    cut() {
      target = undefined;
      dropAll();
    },
    close() {
      target = undefined;
      dropAll();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

import uWS, { type TemplatedApp, type us_listen_socket } from 'uWebSockets.js';

/**
 * uWebSockets.js accepts `listen(host, port, options, cb)` and exports the option at run time,
 * but its typings declare neither.
 */
type ListenWithOptions = (host: string, port: number, options: number, cb: (socket: us_listen_socket | false) => void) => TemplatedApp;
const EXCLUSIVE_PORT = (uWS as unknown as { LIBUS_LISTEN_EXCLUSIVE_PORT: number }).LIBUS_LISTEN_EXCLUSIVE_PORT;

/**
 * Listens without SO_REUSEPORT (uWS's default sets it): a second process on a taken port gets
 * `false` instead of silently sharing the port and splitting the traffic.
 */
export function listenExclusive(app: TemplatedApp, host: string, port: number, cb: (socket: us_listen_socket | false) => void): void {
  (app.listen as unknown as ListenWithOptions).call(app, host, port, EXCLUSIVE_PORT, cb);
}

/** Listens with SO_REUSEPORT: processes on the same port split the connections (SHARE_PORT=true). */
export function listenShared(app: TemplatedApp, host: string, port: number, cb: (socket: us_listen_socket | false) => void): void {
  app.listen(host, port, cb);
}

import type { SiteRegistry } from '../core/sites/SiteRegistry.js';
import { type ServerOptions, createServer } from './createServer.js';
import type { RouteTable } from './openapi/RouteTable.js';
import { serverUrl } from './serverUrl.js';

export interface RunningServer {
  port: number;
  /** `http://host:port`, for clients and tests. */
  url: string;
  /** Graceful stop (see AriadneServer.close). */
  close(graceMs?: number): Promise<void>;
  /** The sites served; `replace` a snapshot to reload them. */
  sites: SiteRegistry;
  /** Every route registered (see AriadneServer.routes). */
  routes: RouteTable;
  /** See AriadneServer.metricsJson. */
  metricsJson(): Promise<object[]>;
}

/** Creates the server and listens on config.host:config.port (port 0 picks a free one). */
export async function startServer(opts: ServerOptions): Promise<RunningServer> {
  const server = await createServer(opts);
  const { host } = opts.config;
  const port = await server.listen(host, opts.config.port);
  return {
    port,
    url: serverUrl(host, port),
    close: (graceMs) => server.close(graceMs),
    sites: server.sites,
    routes: server.routes,
    metricsJson: () => server.metricsJson(),
  };
}

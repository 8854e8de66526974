import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { SiteRegistry } from '../core/sites/SiteRegistry.js';
import { verifyToken } from '../core/redeem/verifyToken.js';
import { scoringModeFor } from '../core/scoring/scoringModeFor.js';
import { DEMO_SITE_KEY } from '../http/assets/demoSignup.js';
import { mountAssets } from '../http/assets/mountAssets.js';
import type { ServerOptions } from '../http/createServer.js';
import { type RunningServer, startServer } from '../http/startServer.js';
import type { Store } from '../store/Store.js';
import type { CredentialStore } from '../store/credentials/CredentialStore.js';
import type { TrafficStore } from '../store/traffic/TrafficStore.js';

export interface ServeHereOptions {
  config: Config;
  sites: SiteRegistry;
  store: Store;
  /** Passkey credentials; undefined when passkeys are off. */
  credentials: CredentialStore | undefined;
  log: Logger;
  /** One of the threads of a process that holds the port (startServerThreads). */
  threadOfPort: boolean;
  /** Where the dashboard's counts and the sampled traces are kept (absent: both off). */
  traffic: TrafficStore | undefined;
  /** With threadOfPort: this thread's label, and what it answers for every thread. */
  threadsOfProcess?: ServerOptions['threadsOfProcess'];
}

/** The server of `npm start` on this thread: every route, the widget, its wasm and the demo. */
export function serveHere(opts: ServeHereOptions): Promise<RunningServer> {
  const { config, store, credentials } = opts;
  return startServer({
    config,
    sites: opts.sites,
    store,
    logger: opts.log,
    threadOfPort: opts.threadOfPort,
    ...(opts.threadsOfProcess ? { threadsOfProcess: opts.threadsOfProcess } : {}),
    ...(opts.traffic ? { traffic: opts.traffic } : {}),
    passkeys: credentials && { config: config.webauthn, credentials },
    // The demo's backend redeems tokens in-process, like a site would.
    mount: (app) =>
      mountAssets(app, {
        apiPrefix: config.apiPrefix,
        verifyTokenInProcess: async (token, sessionId) => {
          const outcome = await verifyToken(token, { secret: config.signingSecret, secrets: config.signingKeys, sessionId, store });
          // Said beside the verdict, so that a score let through by shadow mode is not called a pass.
          const scoring = opts.sites.resolve(DEMO_SITE_KEY)?.policy.scoring;
          if (scoring === undefined) return outcome;
          // The site's policy now, not when the token was made: a demo's verdict, read at once.
          return { ...outcome, mode: scoringModeFor(scoring, outcome.inputType), threshold: scoring.threshold };
        },
      }),
  });
}

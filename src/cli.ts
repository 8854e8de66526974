#!/usr/bin/env node
/**
 * `npm start` (and `ariadne`): configuration from the environment, the sites file (reloaded on
 * SIGHUP), the stores STORE and CREDENTIALS name (see openStore; credentials only when any site
 * uses passkeys), then the server.
 */
import { loadConfig } from './config.js';
import { createLogger } from './cli/createLogger.js';
import { describeSites, needsPasskeys, reloadSitesOnSighup } from './cli/startSites.js';
import { loadSitesFile } from './core/sites/loadSitesFile.js';
import { SiteRegistry } from './core/sites/SiteRegistry.js';
import { mountAssets } from './http/assets/mountAssets.js';
import { startServer } from './http/startServer.js';
import { verifyToken } from './core/verifyToken.js';
import { openStore } from './store/openStore.js';

const loaded = loadConfig(process.env);
if (!loaded.ok) {
  console.error(loaded.error);
  process.exit(1);
}
const log = createLogger(loaded.config.logLevel);
for (const warning of loaded.warnings) {
  log.warn(warning);
  console.error(`\n*** WARNING: ${warning}\n`);
}

const { config } = loaded;
const sitesLoaded = await loadSitesFile(config);
if (!sitesLoaded.ok) {
  console.error(`Invalid sites file:\n  ${sitesLoaded.errors.join('\n  ')}`);
  process.exit(1);
}
const sites = new SiteRegistry(sitesLoaded.snapshot);
log.info(describeSites(sitesLoaded.snapshot));
const stores = await openStore(config, log, { passkeys: needsPasskeys(sitesLoaded.snapshot) }).catch((e: unknown) => {
  const message = e instanceof Error ? e.message : String(e);
  log.fatal(message);
  console.error(message);
  process.exit(1);
});
const { store, credentials } = stores;
reloadSitesOnSighup(sites, config, log, { passkeysOpen: credentials !== undefined });
const server = await startServer({
  config,
  sites,
  store,
  logger: log,
  passkeys: credentials && { config: config.webauthn, credentials },
  // The widget, its wasm and the demo, whose backend redeems tokens in-process like a site would.
  mount: (app) =>
    mountAssets(app, {
      apiPrefix: config.apiPrefix,
      verifyTokenInProcess: (token, sessionId) =>
        verifyToken(token, { secret: config.signingSecret, secrets: config.signingKeys, sessionId, store }),
    }),
});
const api = `${server.url}${config.apiPrefix || '/'}`;
log.info(
  { url: server.url, demo: `${server.url}/`, api, openapi: `${server.url}/openapi.json`, scoring: config.scoring, passkeys: config.webauthn.mode, store: config.store.kind },
  `ariadne ready: demo ${server.url}/ · API ${api} (and at the root) · OpenAPI ${server.url}/openapi.json`,
);

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'shutting down: finishing in-flight requests');
  await server.close();
  await stores.close();
  process.exit(0);
}
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));

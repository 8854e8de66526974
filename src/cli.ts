#!/usr/bin/env -S node --max-semi-space-size=2 --heap-growing-percent=25
/**
 * `npm start` (and `ariadne`): configuration from the environment, the sites file (reloaded on
 * SIGHUP), the stores STORE and CREDENTIALS name (see openStore; credentials only when any site
 * uses passkeys), then the server: on this thread with WORKERS=1, else on WORKERS threads that
 * share the port this process claims and one store.
 */
import { loadConfig } from './config.js';
import { createLogger } from './cli/createLogger.js';
import { demoSiteNotice } from './cli/demoSiteNotice.js';
import { describeCollection } from './cli/describeCollection.js';
import { serveHere } from './cli/serveHere.js';
import { startServerThreads } from './cli/startServerThreads.js';
import { describeSites, needsPasskeys, reloadSitesOnSighup } from './cli/startSites.js';
import { loadSitesFile } from './core/sites/loadSitesFile.js';
import { SiteRegistry } from './core/sites/SiteRegistry.js';
import { claimPort, refuseClaimedPort } from './http/claimPort.js';
import { serverUrl } from './http/serverUrl.js';
import { openStore } from './store/openStore.js';

/** Longest wait for the other threads to stop after one crashed, before exiting regardless. */
const CRASH_STOP_BOUND_MS = 2_000;

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

/** Stops start-up (or a running server) with a message for the operator. */
function fatal(e: unknown): never {
  const message = e instanceof Error ? e.message : String(e);
  log.fatal(message);
  console.error(message);
  process.exit(1);
}

const { config } = loaded;
const sitesLoaded = await loadSitesFile(config);
if (!sitesLoaded.ok) {
  console.error(`Invalid sites file:\n  ${sitesLoaded.errors.join('\n  ')}`);
  process.exit(1);
}
const sites = new SiteRegistry(sitesLoaded.snapshot);
log.info(describeSites(sitesLoaded.snapshot));
const demoNotice = demoSiteNotice(sitesLoaded.snapshot);
if (demoNotice !== undefined) log.warn(demoNotice);
const threaded = config.workers > 1;
const stores = await openStore(config, log, { passkeys: needsPasskeys(sitesLoaded.snapshot), threads: threaded }).catch(fatal);
const { store, credentials } = stores;

let url: string;
let stopServing: () => Promise<void>;
if (!threaded) {
  const server = await serveHere({ config, sites, store, credentials, traffic: stores.traffic, log, threadOfPort: false }).catch(fatal);
  reloadSitesOnSighup(sites, config, log, { passkeysOpen: credentials !== undefined });
  url = server.url;
  stopServing = () => server.close();
} else {
  // A port shared on purpose (SHARE_PORT) is not claimed; port 0 is, to pick one for every thread.
  const sharing = config.store.sharePort && config.port !== 0;
  if (sharing) await refuseClaimedPort(config.host, config.port).catch(fatal);
  const claimed = sharing ? { port: config.port, release: () => {} } : await claimPort(config.host, config.port).catch(fatal);
  const threads = await startServerThreads({
    count: config.workers,
    config: { ...config, port: claimed.port },
    sites: sitesLoaded.snapshot,
    shared: stores.shared,
    credentials,
    traffic: stores.traffic,
    onCrash: (message) => void exitAfterCrash(`${message}; exiting rather than serving without it`),
  }).catch(fatal);
  /**
   * The other threads are cut off at once (no grace: the store they share may be torn) before the
   * process exits 1: exiting while a thread still holds its sockets aborts in native code. A
   * thread that does not stop within the bound (stuck on a lock the dead one held) gets that abort.
   */
  const exitAfterCrash = async (message: string) => {
    log.fatal(message);
    console.error(message);
    const bound = new Promise((resolve) => setTimeout(resolve, CRASH_STOP_BOUND_MS).unref());
    await Promise.race([threads.stop(0), bound]);
    process.exit(1);
  };
  const replace = async (snapshot: typeof sitesLoaded.snapshot) => {
    await threads.replaceSites(snapshot);
    return sites.replace(snapshot);
  };
  reloadSitesOnSighup({ replace }, config, log, { passkeysOpen: credentials !== undefined });
  url = serverUrl(config.host, claimed.port);
  stopServing = async () => {
    await threads.stop();
    claimed.release();
  };
}

// The API's routes sit under the prefix (and at the root); every URL named here answers a GET.
const api = `${url}${config.apiPrefix}/`;
const apiWhere = config.apiPrefix === '' ? api : `${api} (and ${url}/)`;
log.info(
  {
    url,
    demo: `${url}/`,
    api,
    openapi: `${url}/openapi.json`,
    scoring: config.scoring,
    passkeys: config.webauthn.mode,
    store: config.store.kind,
    workers: config.workers,
  },
  `ariadne ready: demo ${url}/ · API routes under ${apiWhere}: POST challenge, verify, siteverify · OpenAPI ${url}/openapi.json`,
);

for (const line of describeCollection(config, url)) log.info(line);

let stopping = false;
async function stop(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  log.info({ signal }, 'shutting down: finishing in-flight requests');
  await stopServing();
  await stores.close();
  process.exit(0);
}
process.on('SIGTERM', () => void stop('SIGTERM'));
process.on('SIGINT', () => void stop('SIGINT'));

import type { Logger } from 'pino';
import type { Config } from '../config.js';
import { loadSitesFile } from '../core/sites/loadSitesFile.js';
import type { SitesChange, SitesSnapshot } from '../core/sites/SiteRegistry.js';

/** Serves a new snapshot: a SiteRegistry, or one that also hands it to every server thread. */
export interface SitesReplacer {
  replace(snapshot: SitesSnapshot): SitesChange | Promise<SitesChange>;
}

/** Whether any site (or the server-wide policy) asks for passkeys, so the credential store must be open. */
export function needsPasskeys(snapshot: SitesSnapshot): boolean {
  return snapshot.fallback.webauthn.mode !== 'off' || (snapshot.sites ?? []).some((s) => s.policy.webauthn.mode !== 'off');
}

/** One line on what is served: the sites of the file, or any site key under one policy. */
export function describeSites(snapshot: SitesSnapshot): string {
  const test = snapshot.testKeys ? '; test keys on' : '';
  if (snapshot.sites === undefined) return `no SITES_FILE: every site key is served under one policy${test}`;
  return `${snapshot.sites.length} site(s) from ${snapshot.source}: ${snapshot.sites.map((s) => s.key).join(', ')}${test}`;
}

/**
 * Reloads the sites file on SIGHUP. A file that does not load (or that would need passkeys the
 * process did not open) is logged and ignored: the sites in service stay. Requests in flight
 * keep the site they resolved; new ones see the new file: the reload is logged once every
 * thread serves it.
 */
export function reloadSitesOnSighup(registry: SitesReplacer, config: Config, log: Logger, opts: { passkeysOpen: boolean }): void {
  let reloading = Promise.resolve();
  process.on('SIGHUP', () => {
    reloading = reloading.then(async () => {
      const loaded = await loadSitesFile(config);
      if (!loaded.ok) {
        log.error({ errors: loaded.errors }, 'sites file not reloaded: it does not load; the sites in service stay');
        return;
      }
      if (needsPasskeys(loaded.snapshot) && !opts.passkeysOpen) {
        log.error('sites file not reloaded: it turns passkeys on, which needs a restart (the credential store is not open)');
        return;
      }
      const change = await registry.replace(loaded.snapshot);
      log.info({ ...change }, `sites reloaded: ${describeSites(loaded.snapshot)}`);
    });
  });
}

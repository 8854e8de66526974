import { type Failure, failure } from '../errors.js';
import { type Site, hostnameAllowed } from './Site.js';
import type { SiteRegistry } from './SiteRegistry.js';
import { testSiteOutcome } from './testKeys.js';

export type Admission = { ok: true; site: Site } | { ok: false; failure: Failure };

/**
 * The site a browser request names, when it may be served: a site key the server knows
 * (unknown_site_key) requested from a page on one of its hostnames (hostname_not_allowed; the
 * Origin header is required once a site lists hostnames).
 */
export function admitSite(sites: SiteRegistry, siteKey: string, origin: string): Admission {
  const site = sites.resolve(siteKey);
  if (site === undefined) {
    const detail = testSiteOutcome(siteKey) === undefined ? undefined : 'test keys are off (TEST_KEYS)';
    return { ok: false, failure: failure('unknown_site_key', detail) };
  }
  if (!hostnameAllowed(site, origin)) {
    return { ok: false, failure: failure('hostname_not_allowed', origin === '' ? 'Origin header required' : `origin ${origin}`) };
  }
  return { ok: true, site };
}

import type { SiteRegistry } from '../sites/SiteRegistry.js';
import { testSiteOutcome } from '../sites/testKeys.js';

/**
 * The site a count is filed under: a site key the sites file (or the test keys) lists, else ''
 * (the open policy, or no site admitted). Without a sites file any key is admitted, so a key
 * there is the client's word: filing under it would let requests add sites without end.
 */
export function siteLabel(sites: SiteRegistry, siteKey: unknown): string {
  if (typeof siteKey !== 'string') return '';
  // A test key first, by a lookup in a constant table (resolving it would copy a site).
  if (testSiteOutcome(siteKey) !== undefined) return sites.testKeys ? siteKey : '';
  return sites.listed && sites.resolve(siteKey) !== undefined ? siteKey : '';
}

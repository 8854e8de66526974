import type { SiteRegistry } from '../sites/SiteRegistry.js';

/**
 * The site a count is filed under: a site key the sites file (or the test keys) lists, else ''
 * (the open policy, or no site admitted). Without a sites file any key is admitted, so a key
 * there is the client's word: filing under it would let requests add sites without end.
 */
export function siteLabel(sites: SiteRegistry, siteKey: unknown): string {
  if (typeof siteKey !== 'string' || !sites.listed && !sites.testKeys) return '';
  const site = sites.resolve(siteKey);
  return site !== undefined && (sites.listed || site.test !== undefined) ? siteKey : '';
}

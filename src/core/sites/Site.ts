import type { SitePolicy } from './SitePolicy.js';

/** One protected site: who may embed it, who may redeem its tokens, and its policy. */
export interface Site {
  key: string;
  /**
   * Hostnames of the pages allowed to show the widget, lowercase; `*.example.com` matches any
   * subdomain of example.com. Empty: any page (no sites file, or the test keys).
   */
  hostnames: readonly string[];
  /** Its /siteverify secret; undefined without a sites file (SITEVERIFY_AUTH_TOKEN applies). */
  secret: string | undefined;
  policy: SitePolicy;
  /** policyDigest(policy): bound into every challenge id issued for the site. */
  digest: string;
  /** Digests of the site's earlier policies, newest first: their challenges are answered as expired. */
  retired: readonly string[];
  /** A test key: every /verify passes or fails without a maze (see testKeys.ts). */
  test?: 'pass' | 'fail';
}

/** Whether a page at `origin` (an Origin header value, '' when absent) may use `site`. */
export function hostnameAllowed(site: Pick<Site, 'hostnames'>, origin: string): boolean {
  if (site.hostnames.length === 0) return true;
  const host = hostnameOf(origin);
  if (host === '') return false;
  for (const allowed of site.hostnames) {
    if (allowed === host) return true;
    if (allowed.startsWith('*.') && host.endsWith(allowed.slice(1))) return true;
  }
  return false;
}

/** Lowercase hostname of an Origin header value, '' when absent, opaque or malformed. */
export function hostnameOf(origin: string | undefined): string {
  if (origin === undefined || origin === '' || origin === 'null') return '';
  try {
    return new URL(origin).hostname.toLowerCase();
  } catch {
    return '';
  }
}

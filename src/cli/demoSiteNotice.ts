import type { SitesSnapshot } from '../core/sites/SiteRegistry.js';
import { DEMO_SITE_KEY } from '../http/assets/demoSignup.js';

/**
 * The warning start-up logs when a sites file does not list the demo's site key: the demo page
 * at / would show a widget that can never pass (unknown_site_key). Undefined when the demo works.
 */
export function demoSiteNotice(snapshot: SitesSnapshot): string | undefined {
  if (snapshot.sites === undefined || snapshot.sites.some((s) => s.key === DEMO_SITE_KEY)) return undefined;
  return `the demo at / uses site key "${DEMO_SITE_KEY}", which ${snapshot.source} does not list: its widget answers unknown_site_key; add a site "${DEMO_SITE_KEY}" with this server's hostname to try it (docs/operating.md, The demo)`;
}

import type { CoreContext } from '../context.js';
import type { Site } from '../sites/Site.js';
import { siteLabel } from '../traffic/siteLabel.js';
import type { KeyboardDoorState } from './KeyboardDoorPolicy.js';

/**
 * The keyboard door of `site` now: its pinned mode, else surge or people first by the keyboard
 * budget (people first where no budget is kept).
 */
export function keyboardDoorOf(ctx: Pick<CoreContext, 'keyboardBudget' | 'sites'>, site: Site): KeyboardDoorState {
  const policy = site.policy.keyboard;
  if (ctx.keyboardBudget === undefined) return policy.door === 'auto' ? 'people_first' : policy.door;
  return ctx.keyboardBudget.doorOf(siteLabel(ctx.sites, site.key), policy);
}

/**
 * The policy digest a challenge issued in a keyboard surge binds instead of the site's own
 * (challengeIdBytes.ts): /verify then knows, from the id alone, that its keyboard solve owes the
 * surge's proof of work and is scored strictly.
 */
export function surgeDigest(digest: string): string {
  return `${digest}:keyboard-surge`;
}

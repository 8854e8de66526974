import type { CoreContext } from '../context.js';
import type { Site } from '../sites/Site.js';
import { siteLabel } from '../traffic/siteLabel.js';
import type { ScoreCheck } from '../verify/checkScore.js';

/**
 * Counts a scored solve for the keyboard budget: a pointer token, or a keyboard solve the
 * people-first model accepts (whichever model judged it: what the door is asked for, not what it
 * let through, so a surge held back by the strict model still reads as one) for the site and the
 * client (its rate-limit binding).
 */
export async function countForBudget(
  ctx: Pick<CoreContext, 'keyboardBudget' | 'sites'>,
  site: Site,
  solve: { keyboard: boolean; binding: string },
  scored: ScoreCheck,
): Promise<void> {
  const budget = ctx.keyboardBudget;
  if (budget === undefined) return;
  const policy = site.policy.keyboard;
  if (!solve.keyboard) {
    if (scored.ok) await budget.countToken(siteLabel(ctx.sites, site.key), policy, false);
    return;
  }
  // A keyboard solve nothing scored (scoring off) counts as the people-first door's.
  if (!(scored.keyboard?.peopleFirstPass ?? scored.ok)) return;
  await Promise.all([budget.countToken(siteLabel(ctx.sites, site.key), policy, true), budget.countClient(solve.binding, policy)]);
}

import type { CoreContext } from '../context.js';
import type { Site } from '../sites/Site.js';
import { keyboardDoorOf } from './keyboardDoorOf.js';

/**
 * Whether a keyboard solve of `site` by the client `binding` is scored by the strict keyboard
 * model: its challenge was issued in a surge, the door is strict or in a surge now (the stricter
 * of the two moments, so challenges fetched before a surge are not a way around it), or the
 * client has passed its hour's keyboard budget.
 */
export async function strictKeyboardFor(
  ctx: Pick<CoreContext, 'keyboardBudget' | 'sites'>,
  site: Site,
  issuedInSurge: boolean,
  binding: string,
): Promise<boolean> {
  if (issuedInSurge || keyboardDoorOf(ctx, site) !== 'people_first') return true;
  return (await ctx.keyboardBudget?.clientOver(binding, site.policy.keyboard)) ?? false;
}

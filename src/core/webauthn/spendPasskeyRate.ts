import type { CoreContext } from '../context.js';
import { type Failure, failure } from '../errors.js';

/** The window of the per-passkey rate. */
const HOUR_MS = 3_600_000;

/**
 * Spends one of the passkey `credentialId`'s uses of this hour, over every node: one count for the
 * passkey door (passWithPasskey.ts) and for a keyboard solve it lets past a tightened keyboard door
 * (verifySubmission.ts), so a stolen or shared authenticator cannot mint more than `perHour` tokens
 * an hour by either. Call it only once the passkey's assertion has verified over a challenge just
 * consumed: a replayed request is refused before, so only its holder, answering a fresh challenge,
 * spends its rate. passkey_rate_exceeded (429) past `perHour`. It is a store counter, so as
 * best-effort as those (Store.increment: a full embedded store forgets the least recently used).
 */
export async function spendPasskeyRate(
  ctx: Pick<CoreContext, 'store' | 'now'>,
  credentialId: string,
  perHour: number,
): Promise<Failure | undefined> {
  const now = ctx.now();
  const window = Math.floor(now / HOUR_MS);
  const uses = await ctx.store.increment(`passkey-door:${credentialId}:${window}`, (window + 1) * HOUR_MS - now);
  return uses > perHour ? failure('passkey_rate_exceeded', `this passkey passed ${perHour} times this hour`) : undefined;
}

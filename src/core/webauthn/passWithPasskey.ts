import { authenticateChallengeId } from '../challenge/authenticateChallengeId.js';
import { consumeChallenge } from '../challenge/consumeChallenge.js';
import type { CoreContext } from '../context.js';
import { deriveWebAuthnChallenge } from '../challenge/deriveChallenge.js';
import type { ClientInfo } from '../challenge/issueChallenge.js';
import { type Failure, failure } from '../errors.js';
import { issueDoorToken } from '../redeem/issueDoorToken.js';
import { admitSite } from '../sites/admitSite.js';
import { sitePasskeys } from '../sites/sitePasskeys.js';
import { checkWebAuthnShape } from '../verify/checkWebAuthnShape.js';
import type { WebAuthnAssertion } from '../verify/checkWebAuthn.js';
import { spendPasskeyRate } from './spendPasskeyRate.js';
import { verifyAssertion } from './verifyAssertion.js';

export interface PasskeyDoorInput {
  challenge_id: string;
  site_key: string;
  session_id: string;
  stable_id: string;
  webauthn: WebAuthnAssertion;
}

export type PasskeyDoorResult = { ok: true; token: string } | { ok: false; failure: Failure };

const fail = (code: Failure['code'], detail?: string): PasskeyDoorResult => ({ ok: false, failure: failure(code, detail) });

/**
 * The passkey door: a returning passkey of (site_key, stable_id) earns a session token without a
 * maze, on a site that opened the door (not_found otherwise). For an admitted site and an
 * authentic, unexpired challenge of it:
 *  1. the assertion has the shape of navigator.credentials.get()'s result (invalid_request);
 *  2. it verifies as in /verify: over the challenge's derived WebAuthn challenge, by a passkey of
 *     this stable_id, with user verification, its counter moving forward (a cloned
 *     authenticator: webauthn_failed);
 *  3. the challenge is consumed (challenge_not_found: used already), so that only a fresh one
 *     spends the passkey's rate;
 *  4. the passkey has passed at most `perHour` times this hour, over every node, here or past a
 *     tightened keyboard door (spendPasskeyRate.ts; passkey_rate_exceeded, 429).
 * The session token carries score 1 and method `passkey`.
 */
export async function passWithPasskey(ctx: CoreContext, input: PasskeyDoorInput, client: ClientInfo): Promise<PasskeyDoorResult> {
  const admitted = admitSite(ctx.sites, input.site_key, client.origin);
  if (!admitted.ok) return admitted;
  const { site } = admitted;
  const passkeys = site.test === undefined ? sitePasskeys(ctx.passkeys, site) : undefined;
  const door = site.policy.passkeyDoor;
  if (passkeys === undefined || door === undefined) return fail('not_found', 'the passkey door is closed for this site');
  const malformed = checkWebAuthnShape(passkeys, input.stable_id, input.webauthn);
  if (malformed !== undefined) return { ok: false, failure: malformed };
  const auth = authenticateChallengeId(ctx.challengeKeys, input.challenge_id, site, ctx.now(), ctx.config, false);
  if (!auth.ok) return auth;
  const { challenge } = auth;

  const verdict = await verifyAssertion(passkeys, {
    siteKey: site.key,
    stableId: input.stable_id,
    expectedChallenge: deriveWebAuthnChallenge(challenge.key, challenge.bytes),
    response: input.webauthn,
  });
  if (!verdict.ok) return fail(verdict.code, verdict.detail);

  // Consumed before the rate is spent: a replayed request (a synced passkey's counter stays 0, so
  // its assertion verifies again) is refused here and costs the passkey's holder nothing.
  const spent = await consumeChallenge(ctx.store, challenge);
  if (spent !== undefined) return { ok: false, failure: spent };

  const overRate = await spendPasskeyRate(ctx, verdict.credentialId, door.perHour);
  if (overRate !== undefined) return { ok: false, failure: overRate };

  const token = issueDoorToken(ctx, 'passkey', { challengeId: challenge.id, sessionId: input.session_id, siteKey: site.key }, client);
  return { ok: true, token };
}

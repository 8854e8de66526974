import type { AuthenticChallenge } from '../challenge/authenticateChallengeId.js';
import type { Passkeys } from '../context.js';
import { deriveWebAuthnChallenge } from '../challenge/deriveChallenge.js';
import { type Failure, failure } from '../errors.js';
import { verifyAssertion } from '../webauthn/verifyAssertion.js';

/** The `webauthn` field of /verify (interface.md): base64url strings. */
export interface WebAuthnAssertion {
  id: string;
  rawId: string;
  type: string;
  response: { clientDataJSON: string; authenticatorData: string; signature: string; userHandle?: string | undefined };
}

export interface WebAuthnCheckInput {
  /** The site's passkey settings (sites/sitePasskeys.ts); undefined when off. */
  passkeys: Passkeys | undefined;
  challenge: AuthenticChallenge;
  siteKey: string;
  stableId: string | undefined;
  assertion: WebAuthnAssertion | undefined;
}

/** The passkey step's verdict: `credentialId` is the passkey whose assertion verified, if one came. */
export type WebAuthnCheck = { ok: true; credentialId?: string } | { ok: false; failure: Failure };

/** No passkey asked for, or none given where one is optional: one answer shared by every /verify. */
const PASSED: WebAuthnCheck = Object.freeze({ ok: true });

/**
 * The passkey step of /verify:
 * - off: the field is ignored;
 * - required: an assertion must come (webauthn_required), for every stable_id, including one
 *   without a registered passkey (it must register first);
 * - preferred: an assertion may be left out, but one that comes must verify.
 * An assertion must be over the challenge's own derived WebAuthn challenge, by a passkey of
 * (site_key, stable_id) (webauthn_failed).
 */
export async function checkWebAuthn(input: WebAuthnCheckInput): Promise<WebAuthnCheck> {
  const { passkeys } = input;
  if (passkeys === undefined || passkeys.config.mode === 'off') return PASSED;
  if (input.assertion === undefined) {
    return passkeys.config.mode === 'required' ? { ok: false, failure: failure('webauthn_required') } : PASSED;
  }
  // checkWebAuthnShape ran before the consume: an assertion comes with a stable_id.
  const verdict = await verifyAssertion(passkeys, {
    siteKey: input.siteKey,
    stableId: input.stableId ?? '',
    expectedChallenge: deriveWebAuthnChallenge(input.challenge.key, input.challenge.bytes),
    response: input.assertion,
  });
  return verdict.ok ? { ok: true, credentialId: verdict.credentialId } : { ok: false, failure: failure(verdict.code, verdict.detail) };
}

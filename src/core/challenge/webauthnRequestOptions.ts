import { type AssertionOptions, createAssertionOptions } from '../webauthn/createAssertionOptions.js';
import type { Passkeys } from '../context.js';

/** `webauthn_request_options` of a challenge (interface.md). */
export type WebAuthnRequestOptions = AssertionOptions;

/**
 * What a challenge asks for. In `required` mode `options` is absent when the stable_id has no
 * passkey (or the client cannot use one): /verify will then answer webauthn_required, and the
 * client has to register a passkey first.
 */
export interface WebAuthnRequest {
  mode: 'preferred' | 'required';
  options?: WebAuthnRequestOptions | undefined;
}

export interface WebAuthnRequestInput {
  /** The assertion challenge derived from the id (base64url); computed only when asked for. */
  challenge: () => string;
  siteKey: string;
  stableId: string | undefined;
  /** client_capabilities.webauthn_available; only an explicit false means the client cannot. */
  webauthnAvailable?: boolean | undefined;
}

/**
 * The passkey part of a challenge under the site's passkey settings: nothing when off; in
 * `preferred` mode request options when `stableId` has registered passkeys and the client can
 * use them; in `required` mode always the requirement, with options under the same condition.
 */
export async function webauthnRequestOptions(passkeys: Passkeys, input: WebAuthnRequestInput): Promise<WebAuthnRequest | undefined> {
  if (passkeys.config.mode === 'off') return undefined;
  const mode = passkeys.config.mode;
  const options =
    input.stableId === undefined || input.stableId === '' || input.webauthnAvailable === false
      ? undefined
      : await createAssertionOptions(passkeys, {
          siteKey: input.siteKey,
          stableId: input.stableId,
          challenge: input.challenge(),
        });
  if (options === undefined) return mode === 'required' ? { mode } : undefined;
  return { mode, options };
}

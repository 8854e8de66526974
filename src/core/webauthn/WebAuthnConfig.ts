/**
 * How passkeys take part in /verify:
 * - `off`: never asked for, an assertion in /verify is ignored, the registration routes answer 404.
 * - `preferred`: asked for when the stable_id has a credential; a present assertion must verify.
 * - `required`: every /verify must carry a valid assertion (see docs/passkeys.md for a stable_id that
 *   has no credential yet: it is refused with `webauthn_required` until one is registered).
 */
export type WebAuthnMode = 'off' | 'preferred' | 'required';

export interface WebAuthnConfig {
  mode: WebAuthnMode;
  /** Relying-party id: the registrable domain the credentials are scoped to. */
  rpId: string;
  /** Every page origin allowed to run the ceremonies, e.g. `https://example.com`. */
  origins: string[];
  rpName: string;
}

/** COSE algorithms offered, EdDSA first (Chromium's virtual authenticator then picks Ed25519). */
export const SUPPORTED_ALGORITHMS = [-8, -7, -257];
/** Lifetime of a registration session (ms). */
export const REGISTRATION_TTL_MS = 5 * 60_000;
/** Time the browser gives the user for a ceremony (ms). */
export const CEREMONY_TIMEOUT_MS = 60_000;
/** Credentials one (site_key, stable_id) may hold. */
export const MAX_CREDENTIALS_PER_USER = 10;
/** Longest stable_id accepted (it becomes the credential's user name). */
export const MAX_STABLE_ID_LENGTH = 256;
/** typ claim of registration-session tokens, so no other token can stand in for one. */
export const REGISTRATION_TOKEN_TYPE = 'webauthn_registration';

import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/server';
import type { CredentialStore } from '../../store/credentials/CredentialStore.js';
import type { KeyRing } from '../token/keys.js';
import { signToken } from '../token/signToken.js';
import { reject } from './rejection.js';
import type { Rejection } from './rejection.js';
import {
  CEREMONY_TIMEOUT_MS,
  MAX_CREDENTIALS_PER_USER,
  MAX_STABLE_ID_LENGTH,
  REGISTRATION_TOKEN_TYPE,
  REGISTRATION_TTL_MS,
  SUPPORTED_ALGORITHMS,
} from './WebAuthnConfig.js';
import type { WebAuthnConfig } from './WebAuthnConfig.js';

export interface RegistrationOptions {
  ok: true;
  /** The registration session: a signed token, so opening one writes nothing. */
  session_id: string;
  options: PublicKeyCredentialCreationOptionsJSON;
}

/**
 * Opens a registration session for (site_key, stable_id): creation options for the browser
 * (user verification required, attestation none, ES256/EdDSA/RS256, the user's existing
 * credentials excluded) and a session token carrying the challenge, valid REGISTRATION_TTL_MS.
 */
export async function createRegistrationOptions(
  deps: { config: WebAuthnConfig; credentials: CredentialStore; ring: KeyRing },
  input: { siteKey: string; stableId: string },
  now = Date.now(),
): Promise<RegistrationOptions | Rejection> {
  const { config, credentials, ring } = deps;
  const { siteKey, stableId } = input;
  if (config.mode === 'off') return reject('not_found', 'passkeys are off');
  if (stableId.length === 0 || stableId.length > MAX_STABLE_ID_LENGTH) {
    return reject('invalid_request', 'stable_id: required');
  }
  const existing = await credentials.listFor(siteKey, stableId);
  if (existing.length >= MAX_CREDENTIALS_PER_USER) {
    return reject('registration_failed', 'credential limit reached');
  }

  const challenge = randomBytes(32);
  // Loaded on first use: with passkeys off the library never takes memory.
  const { generateRegistrationOptions } = await import('@simplewebauthn/server');
  const options = await generateRegistrationOptions({
    rpName: config.rpName,
    rpID: config.rpId,
    userName: stableId,
    userDisplayName: stableId,
    userID: userHandle(siteKey, stableId),
    challenge,
    timeout: CEREMONY_TIMEOUT_MS,
    attestationType: 'none',
    excludeCredentials: existing.map((c) => ({ id: c.id, transports: c.transports })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
    supportedAlgorithmIDs: SUPPORTED_ALGORITHMS,
  });
  const session_id = signToken(
    {
      typ: REGISTRATION_TOKEN_TYPE,
      jti: randomUUID(),
      site_key: siteKey,
      stable_id: stableId,
      challenge: options.challenge,
      iat: Math.floor(now / 1000),
      // Milliseconds: the store refuses sessions issued before its memory began (Store.since).
      issued_at: now,
      exp: Math.floor((now + REGISTRATION_TTL_MS) / 1000),
    },
    ring.current,
  );
  return { ok: true, session_id, options };
}

/** A stable user handle per (site_key, stable_id), so re-registering replaces, not piles up. */
function userHandle(siteKey: string, stableId: string): Uint8Array<ArrayBuffer> {
  const digest = createHash('sha256')
    .update('ariadne/webauthn/user/v1')
    .update(JSON.stringify([siteKey, stableId]))
    .digest();
  return new Uint8Array(digest);
}

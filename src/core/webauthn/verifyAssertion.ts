import type { CredentialStore } from '../../store/credentials/CredentialStore.js';
import { ceremonyExpectations } from './helpers/ceremonyExpectations.js';
import { readAssertionResponse } from './readCredentialResponse.js';
import { reject } from './rejection.js';
import type { Rejection } from './rejection.js';
import type { WebAuthnConfig } from './WebAuthnConfig.js';

export interface VerifiedAssertion {
  ok: true;
  credentialId: string;
  /** The signature counter now stored (0 when the authenticator keeps none). */
  counter: number;
}

/**
 * Verifies a passkey assertion for a maze challenge: the credential must belong to this
 * (site_key, stable_id); the signature must cover `expectedChallenge` (base64url), one of the
 * configured origins and the RP id, with user verification. A counter in use must advance, and
 * the stored one is moved forward by compare-and-set, so two assertions with the same counter
 * cannot both pass (a cloned authenticator). Never throws for bad input.
 */
export async function verifyAssertion(
  deps: { config: WebAuthnConfig; credentials: CredentialStore },
  input: { siteKey: string; stableId: string; expectedChallenge: string; response: unknown },
): Promise<VerifiedAssertion | Rejection> {
  const { config, credentials } = deps;
  const read = readAssertionResponse(input.response, 'webauthn');
  if (!read.ok) return read;

  let stored;
  try {
    stored = await credentials.get(read.value.id);
  } catch {
    return reject('store_unavailable');
  }
  if (stored === undefined) return reject('webauthn_failed', 'unknown credential');
  if (stored.siteKey !== input.siteKey || stored.stableId !== input.stableId) {
    // Said the same way as an unknown one: no probing which ids exist for other users.
    return reject('webauthn_failed', 'unknown credential');
  }

  let newCounter: number;
  try {
    // Loaded on first use: with passkeys off the library never takes memory.
    const { verifyAuthenticationResponse } = await import('@simplewebauthn/server');
    const verdict = await verifyAuthenticationResponse({
      ...ceremonyExpectations(config, input.expectedChallenge),
      response: read.value,
      credential: {
        id: stored.id,
        publicKey: Buffer.from(stored.publicKey, 'base64url'),
        counter: stored.counter,
      },
    });
    if (!verdict.verified) return reject('webauthn_failed', 'bad signature');
    newCounter = verdict.authenticationInfo.newCounter;
  } catch {
    // Thrown for malformed data and for every mismatch, including a counter that went back.
    return reject('webauthn_failed');
  }

  if (newCounter > 0 || stored.counter > 0) {
    let advanced: boolean;
    try {
      advanced = await credentials.advanceCounter(stored.id, newCounter);
    } catch {
      return reject('store_unavailable');
    }
    if (!advanced) return reject('webauthn_failed', 'counter did not advance');
  }
  return { ok: true, credentialId: stored.id, counter: Math.max(newCounter, stored.counter) };
}

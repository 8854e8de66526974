import type { Store } from '../../store/Store.js';
import type { CredentialStore, StoredCredential } from '../../store/credentials/CredentialStore.js';
import type { KeyRing } from '../token/keys.js';
import { readToken } from '../token/readToken.js';
import { ceremonyExpectations } from './helpers/ceremonyExpectations.js';
import { readRegistrationResponse } from './readCredentialResponse.js';
import { reject } from './rejection.js';
import type { Rejection } from './rejection.js';
import { MAX_CREDENTIALS_PER_USER, REGISTRATION_TOKEN_TYPE, SUPPORTED_ALGORITHMS } from './WebAuthnConfig.js';
import type { WebAuthnConfig } from './WebAuthnConfig.js';

export interface RegisteredCredential {
  ok: true;
  credential_id: string;
}

interface RegistrationSession {
  jti: string;
  siteKey: string;
  stableId: string;
  challenge: string;
  issuedAt: number;
  expiresAt: number;
}

/**
 * Closes a registration session: authenticates the session token, consumes it (one attempt per
 * session, whatever the outcome), verifies the attestation against the session's challenge, the
 * configured origins and RP id with user verification required, then stores the credential
 * durably for the session's (site_key, stable_id). Never throws for bad input.
 */
export async function verifyRegistration(
  deps: { config: WebAuthnConfig; credentials: CredentialStore; store: Store; ring: KeyRing },
  input: { sessionId: string; response: unknown },
  now = Date.now(),
): Promise<RegisteredCredential | Rejection> {
  const { config, credentials, store, ring } = deps;
  if (config.mode === 'off') return reject('not_found', 'passkeys are off');
  const read = readRegistrationResponse(input.response, 'response');
  if (!read.ok) return read;

  const session = readSession(input.sessionId, ring);
  if (session === undefined) return reject('registration_session_not_found');
  if (session.expiresAt <= now) return reject('registration_session_not_found', 'expired');
  const use = await store
    .consume(`webauthn:registration:${session.jti}`, { issuedAt: session.issuedAt, expiresAt: session.expiresAt })
    .catch(() => 'full' as const);
  if (use === 'full') return reject('store_unavailable');
  if (use !== 'fresh') return reject('registration_session_not_found', 'already used');

  let info;
  let alg: unknown;
  try {
    // Loaded on first use: with passkeys off the library and its dependencies never take memory.
    const [{ verifyRegistrationResponse }, { cose, decodeCredentialPublicKey }, { credentialKeyFault }] = await Promise.all([
      import('@simplewebauthn/server'),
      import('@simplewebauthn/server/helpers'),
      import('./credentialKeyFault.js'),
    ]);
    const verdict = await verifyRegistrationResponse({
      ...ceremonyExpectations(config, session.challenge),
      response: read.value,
      requireUserPresence: true,
      supportedAlgorithmIDs: SUPPORTED_ALGORITHMS,
    });
    if (!verdict.verified) return reject('registration_failed');
    info = verdict.registrationInfo;
    const fault = credentialKeyFault(read.value.response.attestationObject, info.credential.publicKey);
    if (fault !== undefined) return reject('registration_failed', fault);
    alg = decodeCredentialPublicKey(info.credential.publicKey).get(cose.COSEKEYS.alg);
  } catch {
    // The library throws for every malformed or mismatching response (CBOR, origin, RP id...).
    return reject('registration_failed');
  }

  const { credential } = info;
  const stored: StoredCredential = {
    id: credential.id,
    siteKey: session.siteKey,
    stableId: session.stableId,
    publicKey: Buffer.from(credential.publicKey).toString('base64url'),
    alg: typeof alg === 'number' ? alg : 0,
    counter: credential.counter,
    transports: read.value.response.transports ?? [],
    createdAt: now,
  };
  const added = await credentials.add(stored, MAX_CREDENTIALS_PER_USER).catch(() => 'unavailable' as const);
  if (added === 'unavailable') return reject('store_unavailable');
  if (added === 'duplicate') return reject('registration_failed', 'credential already registered');
  if (added === 'limit') return reject('registration_failed', 'credential limit reached');
  return { ok: true, credential_id: credential.id };
}

/** The site key a registration session was opened for, when it is one of ours (to find the site's passkey settings). */
export function registrationSiteKey(sessionId: string, ring: KeyRing): string | undefined {
  return readSession(sessionId, ring)?.siteKey;
}

function readSession(sessionId: string, ring: KeyRing): RegistrationSession | undefined {
  if (typeof sessionId !== 'string') return undefined;
  const token = readToken(sessionId, ring, REGISTRATION_TOKEN_TYPE);
  if (!token.ok) return undefined;
  const { jti, site_key, stable_id, challenge, issued_at, exp } = token.claims;
  if (
    typeof jti !== 'string' ||
    typeof site_key !== 'string' ||
    typeof stable_id !== 'string' ||
    typeof challenge !== 'string' ||
    typeof issued_at !== 'number' ||
    typeof exp !== 'number'
  ) {
    return undefined;
  }
  return { jti, siteKey: site_key, stableId: stable_id, challenge, issuedAt: issued_at, expiresAt: exp * 1000 };
}

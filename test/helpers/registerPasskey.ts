import { expect } from 'vitest';
import { postJson } from './client.js';
import { SoftAuthenticator } from './softAuthenticator.js';

/**
 * Registers a new ES256 software passkey for `stableId` on `siteKey` through the server's own
 * registration routes, as a page at `origin` would, and returns the authenticator holding it.
 */
export async function registerPasskey(
  at: (route: string) => string,
  place: { origin: string; rpId: string },
  siteKey: string,
  stableId: string,
): Promise<SoftAuthenticator> {
  const auth = new SoftAuthenticator('ES256', place.origin, place.rpId, true);
  const headers = { origin: place.origin };
  const opened = await postJson(at('/webauthn/register/options'), { site_key: siteKey, stable_id: stableId }, headers);
  const done = await postJson(
    at('/webauthn/register/verify'),
    { session_id: opened.body.session_id, response: auth.register(opened.body.options) },
    headers,
  );
  expect(done.body).toEqual({ success: true, credential_id: auth.id });
  return auth;
}

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRegistrationOptions } from '../../../src/core/webauthn/createRegistrationOptions.js';
import { verifyRegistration } from '../../../src/core/webauthn/verifyRegistration.js';
import { signToken } from '../../../src/core/token/signToken.js';
import { MAX_CREDENTIALS_PER_USER, REGISTRATION_TTL_MS } from '../../../src/core/webauthn/WebAuthnConfig.js';
import { SoftAuthenticator } from '../../helpers/softAuthenticator.js';
import type { SoftAlgorithm } from '../../helpers/softAuthenticator.js';
import { ceremonyMismatches } from './helpers/ceremonyMismatches.js';
import { openFixture, ORIGIN, register, RP_ID } from './helpers/fixture.js';
import type { WebAuthnFixture } from './helpers/fixture.js';

let f: WebAuthnFixture;
beforeEach(async () => {
  f = await openFixture();
});
afterEach(async () => {
  await f.close();
});

async function open(stableId = 'user-1', siteKey = 'site-a') {
  const opened = await createRegistrationOptions(f, { siteKey, stableId });
  if (!opened.ok) throw new Error(opened.code);
  return opened;
}

describe('createRegistrationOptions', () => {
  it('asks for user verification, no attestation, ES256/EdDSA/RS256, with the RP and user', async () => {
    const { session_id, options } = await open();
    expect(session_id.split('.')).toHaveLength(3);
    expect(options.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(options.rp).toEqual({ id: RP_ID, name: 'Ariadne' });
    expect(options.user.name).toBe('user-1');
    expect(Buffer.from(options.user.id, 'base64url')).toHaveLength(32);
    expect(options.attestation).toBe('none');
    expect(options.authenticatorSelection?.userVerification).toBe('required');
    expect(options.pubKeyCredParams.map((p) => p.alg)).toEqual([-8, -7, -257]);
    expect(options.excludeCredentials).toEqual([]);
  });

  it('gives a fresh challenge and a stable user handle per (site_key, stable_id)', async () => {
    const a = await open();
    const b = await open();
    const other = await open('user-1', 'site-b');
    expect(a.options.challenge).not.toBe(b.options.challenge);
    expect(a.options.user.id).toBe(b.options.user.id);
    expect(other.options.user.id).not.toBe(a.options.user.id);
  });

  it('excludes the credentials the stable_id already holds', async () => {
    const auth = await register(f, 'ES256', 'site-a', 'user-1');
    const { options } = await open();
    expect(options.excludeCredentials).toEqual([{ id: auth.id, type: 'public-key', transports: ['internal'] }]);
    expect((await open('user-2')).options.excludeCredentials).toEqual([]);
  });

  it('is refused when passkeys are off, or for an empty stable_id', async () => {
    const off = await createRegistrationOptions({ ...f, config: { ...f.config, mode: 'off' } }, { siteKey: 's', stableId: 'u' });
    expect(off).toMatchObject({ ok: false, code: 'not_found' });
    const empty = await createRegistrationOptions(f, { siteKey: 's', stableId: '' });
    expect(empty).toMatchObject({ ok: false, code: 'invalid_request', detail: 'stable_id: required' });
  });
});

describe('verifyRegistration', () => {
  it.each<SoftAlgorithm>(['ES256', 'EdDSA', 'RS256'])('stores a %s credential for the session user', async (alg) => {
    const { session_id, options } = await open();
    const auth = new SoftAuthenticator(alg, ORIGIN, RP_ID);
    const done = await verifyRegistration(f, { sessionId: session_id, response: auth.register(options) });
    expect(done).toEqual({ ok: true, credential_id: auth.id });
    const stored = await f.credentials.get(auth.id);
    expect(stored).toMatchObject({
      id: auth.id,
      siteKey: 'site-a',
      stableId: 'user-1',
      alg: { ES256: -7, EdDSA: -8, RS256: -257 }[alg],
      counter: 0,
      transports: ['internal'],
    });
  });

  it('accepts every configured origin', async () => {
    const { session_id, options } = await open();
    const auth = new SoftAuthenticator('ES256', 'https://example.com', RP_ID);
    expect(await verifyRegistration(f, { sessionId: session_id, response: auth.register(options) })).toMatchObject({ ok: true });
  });

  it.each(ceremonyMismatches('registration'))('rejects a %s with registration_failed and stores nothing', async (_name, over) => {
    const { session_id, options } = await open();
    const auth = new SoftAuthenticator('ES256', ORIGIN, RP_ID);
    const done = await verifyRegistration(f, { sessionId: session_id, response: auth.register(options, over) });
    expect(done).toMatchObject({ ok: false, code: 'registration_failed' });
    expect(await f.credentials.get(auth.id)).toBeUndefined();
  });

  it.each<[SoftAlgorithm, number]>([
    ['ES256', -8],
    ['ES256', -257],
    ['EdDSA', -7],
    ['EdDSA', -257],
    ['RS256', -7],
    ['RS256', -8],
    ['ES256', -35],
  ])('refuses a %s key that claims COSE algorithm %i, and stores nothing', async (alg, claimed) => {
    const { session_id, options } = await open();
    const auth = new SoftAuthenticator(alg, ORIGIN, RP_ID);
    const done = await verifyRegistration(f, { sessionId: session_id, response: auth.register(options, { coseAlg: claimed }) });
    expect(done).toMatchObject({ ok: false, code: 'registration_failed' });
    expect(await f.credentials.get(auth.id)).toBeUndefined();
  });

  it('refuses bytes after the attestationObject, and stores nothing', async () => {
    const { session_id, options } = await open();
    const auth = new SoftAuthenticator('ES256', ORIGIN, RP_ID);
    const good = auth.register(options);
    const padded = Buffer.concat([Buffer.from(good.response.attestationObject, 'base64url'), Buffer.from([0x00])]).toString('base64url');
    const done = await verifyRegistration(f, {
      sessionId: session_id,
      response: { ...good, response: { ...good.response, attestationObject: padded } },
    });
    expect(done).toEqual({ ok: false, code: 'registration_failed', detail: 'bytes after the attestationObject' });
    expect(await f.credentials.get(auth.id)).toBeUndefined();
  });

  it('uses a session once: a replay is registration_session_not_found', async () => {
    const { session_id, options } = await open();
    const first = new SoftAuthenticator('EdDSA', ORIGIN, RP_ID);
    expect(await verifyRegistration(f, { sessionId: session_id, response: first.register(options) })).toMatchObject({ ok: true });
    const second = new SoftAuthenticator('EdDSA', ORIGIN, RP_ID);
    const replay = await verifyRegistration(f, { sessionId: session_id, response: second.register(options) });
    expect(replay).toMatchObject({ ok: false, code: 'registration_session_not_found' });
    expect(await f.credentials.get(second.id)).toBeUndefined();
  });

  it('burns the session on a failed attempt (one attempt per session)', async () => {
    const { session_id, options } = await open();
    const auth = new SoftAuthenticator('ES256', ORIGIN, RP_ID);
    const bad = await verifyRegistration(f, {
      sessionId: session_id,
      response: auth.register(options, { origin: 'https://x.example.com' }),
    });
    expect(bad).toMatchObject({ code: 'registration_failed' });
    const retry = await verifyRegistration(f, { sessionId: session_id, response: auth.register(options) });
    expect(retry).toMatchObject({ code: 'registration_session_not_found' });
  });

  it('rejects an expired, forged or foreign session', async () => {
    const t0 = Date.now();
    const stale = await createRegistrationOptions(f, { siteKey: 'site-a', stableId: 'u' }, t0 - REGISTRATION_TTL_MS - 1000);
    if (!stale.ok) throw new Error(stale.code);
    const auth = new SoftAuthenticator('ES256', ORIGIN, RP_ID);
    const expired = await verifyRegistration(f, { sessionId: stale.session_id, response: auth.register(stale.options) });
    expect(expired).toMatchObject({ code: 'registration_session_not_found', detail: 'expired' });

    const { session_id, options } = await open();
    const forged = `${session_id.slice(0, -2)}${session_id.endsWith('AA') ? 'AB' : 'AA'}`;
    expect(await verifyRegistration(f, { sessionId: forged, response: auth.register(options) })).toMatchObject({
      code: 'registration_session_not_found',
    });

    // Right key, wrong token type: a session must be a registration session.
    const otherType = signToken(
      { typ: 'probe_ticket', jti: 'j', site_key: 's', stable_id: 'u', challenge: options.challenge, exp: t0 / 1000 + 60 },
      f.ring.current,
    );
    expect(await verifyRegistration(f, { sessionId: otherType, response: auth.register(options) })).toMatchObject({
      code: 'registration_session_not_found',
    });
    expect(await verifyRegistration(f, { sessionId: 'garbage', response: auth.register(options) })).toMatchObject({
      code: 'registration_session_not_found',
    });
  });

  it('answers invalid_request naming the field for garbage base64url, registration_failed for garbage CBOR', async () => {
    const { session_id, options } = await open();
    const good = new SoftAuthenticator('ES256', ORIGIN, RP_ID).register(options);
    const garbled = { ...good, response: { ...good.response, attestationObject: '!!not base64url!!' } };
    expect(await verifyRegistration(f, { sessionId: session_id, response: garbled })).toEqual({
      ok: false,
      code: 'invalid_request',
      detail: 'response.response.attestationObject',
    });
    expect(await verifyRegistration(f, { sessionId: session_id, response: { ...good, id: 42 } })).toMatchObject({
      code: 'invalid_request',
      detail: 'response.id',
    });
    expect(await verifyRegistration(f, { sessionId: session_id, response: null })).toMatchObject({
      code: 'invalid_request',
      detail: 'response',
    });
    // Well-formed base64url that is not CBOR: the library throws, we answer a code.
    const notCbor = { ...good, response: { ...good.response, attestationObject: Buffer.from('hello world').toString('base64url') } };
    expect(await verifyRegistration(f, { sessionId: session_id, response: notCbor })).toMatchObject({
      ok: false,
      code: 'registration_failed',
    });
    const notJson = { ...good, response: { ...good.response, clientDataJSON: 'AAAA' } };
    const again = await open();
    expect(await verifyRegistration(f, { sessionId: again.session_id, response: notJson })).toMatchObject({
      ok: false,
      code: 'registration_failed',
    });
  });

  it('refuses a credential id that is already registered, even for another user', async () => {
    const auth = await register(f, 'ES256', 'site-a', 'user-1');
    const { session_id, options } = await open('user-2');
    const done = await verifyRegistration(f, { sessionId: session_id, response: auth.register(options) });
    expect(done).toMatchObject({ ok: false, code: 'registration_failed', detail: 'credential already registered' });
    expect((await f.credentials.get(auth.id))?.stableId).toBe('user-1');
  });

  it(`holds at most ${MAX_CREDENTIALS_PER_USER} credentials per (site_key, stable_id)`, async () => {
    // Sessions opened before the limit is reached must not slip past it either.
    const late = await open('busy');
    for (let i = 0; i < MAX_CREDENTIALS_PER_USER; i++) await register(f, 'EdDSA', 'site-a', 'busy');
    expect(await createRegistrationOptions(f, { siteKey: 'site-a', stableId: 'busy' })).toMatchObject({
      code: 'registration_failed',
      detail: 'credential limit reached',
    });
    const auth = new SoftAuthenticator('EdDSA', ORIGIN, RP_ID);
    expect(await verifyRegistration(f, { sessionId: late.session_id, response: auth.register(late.options) })).toMatchObject({
      code: 'registration_failed',
      detail: 'credential limit reached',
    });
    expect(await f.credentials.listFor('site-a', 'busy')).toHaveLength(MAX_CREDENTIALS_PER_USER);
    expect(await register(f, 'EdDSA', 'site-b', 'busy')).toBeInstanceOf(SoftAuthenticator);
  });
});

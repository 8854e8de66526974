import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Challenge } from '../../src/core/challenge/issueChallenge.js';
import type { WebAuthnMode } from '../../src/core/webauthn/WebAuthnConfig.js';
import type { CredentialStore } from '../../src/store/credentials/CredentialStore.js';
import { openFileCredentialStore } from '../../src/store/credentials/FileCredentialStore.js';
import { buildSubmission, postJson, postVerify } from '../helpers/client.js';
import { startTestServer } from '../helpers/server.js';
import type { TestServer } from '../helpers/server.js';
import { SoftAuthenticator } from '../helpers/softAuthenticator.js';
import type { SoftAlgorithm } from '../helpers/softAuthenticator.js';

const ORIGIN = 'https://shop.example.com';
const RP_ID = 'example.com';

interface Running {
  server: TestServer;
  credentials: CredentialStore;
  dataDir: string;
}

const servers = new Map<WebAuthnMode, Running>();

/** A server per mode, each with its own credential log in a temp dir. */
async function start(mode: WebAuthnMode): Promise<Running> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'ariadne-http-webauthn-'));
  const credentials = await openFileCredentialStore(dataDir);
  const passkeys = { config: { mode, rpId: RP_ID, origins: [ORIGIN], rpName: 'Ariadne' }, credentials };
  const server = await startTestServer({}, mode === 'off' ? {} : { passkeys });
  return { server, credentials, dataDir };
}

beforeAll(async () => {
  for (const mode of ['off', 'preferred', 'required'] as const) servers.set(mode, await start(mode));
});
afterAll(async () => {
  for (const s of servers.values()) {
    await s.server.close(1000);
    await s.credentials.close();
    await rm(s.dataDir, { recursive: true, force: true });
  }
});

async function post(mode: WebAuthnMode, route: string, body: unknown): Promise<{ status: number; body: Record<string, any> }> {
  const server = servers.get(mode)!.server;
  const send =
    route === '/verify'
      ? postVerify(server, body as Record<string, unknown>, { origin: ORIGIN })
      : postJson(server.at(route), body, { origin: ORIGIN });
  const { status, body: answer } = await send;
  return { status, body: answer };
}

async function openRegistration(mode: WebAuthnMode, siteKey: string, stableId: string) {
  const r = await post(mode, '/webauthn/register/options', { site_key: siteKey, stable_id: stableId });
  expect(r.status).toBe(200);
  return r.body as { session_id: string; options: { challenge: string } & Record<string, any> };
}

async function register(mode: WebAuthnMode, alg: SoftAlgorithm, siteKey: string, stableId: string, counting = false) {
  const auth = new SoftAuthenticator(alg, ORIGIN, RP_ID, counting);
  const { session_id, options } = await openRegistration(mode, siteKey, stableId);
  const r = await post(mode, '/webauthn/register/verify', { session_id, response: auth.register(options) });
  expect(r).toEqual({ status: 200, body: { success: true, credential_id: auth.id } });
  return auth;
}

async function challenge(mode: WebAuthnMode, siteKey: string, stableId?: string, webauthnAvailable = true) {
  const r = await post(mode, '/challenge', {
    site_key: siteKey,
    ...(stableId === undefined ? {} : { stable_id: stableId }),
    client_capabilities: { webauthn_available: webauthnAvailable },
  });
  expect(r.status).toBe(200);
  return r.body as Challenge & Record<string, any>;
}

/** Solves a fresh challenge and submits it with the assertion `assert` makes for its options. */
async function verifyWith(
  mode: WebAuthnMode,
  siteKey: string,
  stableId: string | undefined,
  assert?: (webauthnChallenge: string) => unknown,
) {
  const c = await challenge(mode, siteKey, stableId);
  const body = buildSubmission(servers.get(mode)!.server.kernel, c, { sessionId: randomUUID() });
  if (stableId !== undefined) body.stable_id = stableId;
  if (assert !== undefined) {
    // With no options (no credential) the client still signs something: a random challenge.
    body.webauthn = assert(c.webauthn_request_options?.challenge ?? randomBytes(32).toString('base64url'));
  }
  return post(mode, '/verify', body);
}

const rejected = (code: string) => ({ status: 400, body: expect.objectContaining({ success: false, error_code: code }) });

describe('passkeys over HTTP', () => {
  it.each<SoftAlgorithm>(['ES256', 'EdDSA'])(
    'registers a %s passkey and passes /verify with its assertion (required mode)',
    async (alg) => {
      const stableId = `happy-${alg}`;
      const auth = await register('required', alg, 'site-a', stableId);
      const c = await challenge('required', 'site-a', stableId);
      expect(c.requirements.webauthn).toEqual({ mode: 'required' });
      expect(c.webauthn_request_options).toEqual({
        challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        rpId: RP_ID,
        timeout: 60_000,
        userVerification: 'required',
        allowCredentials: [{ id: auth.id, type: 'public-key', transports: ['internal'] }],
      });
      const body = buildSubmission(servers.get('required')!.server.kernel, c, { sessionId: 'sess-1' });
      const r = await post('required', '/verify', {
        ...body,
        stable_id: stableId,
        webauthn: auth.assert(c.webauthn_request_options!.challenge),
      });
      expect(r.status).toBe(200);
      expect(r.body).toEqual({ success: true, token: expect.any(String) });
      const check = await post('required', '/siteverify', { token: r.body.token, session_id: 'sess-1' });
      expect(check.body.success).toBe(true);
    },
  );

  it('a malformed webauthn field is refused before the challenge is consumed: the valid retry of the same challenge passes', async () => {
    const stableId = 'malformed-then-valid';
    const auth = await register('required', 'ES256', 'site-a', stableId);
    const c = await challenge('required', 'site-a', stableId);
    const body = { ...buildSubmission(servers.get('required')!.server.kernel, c, { sessionId: 'sess-retry' }), stable_id: stableId };
    const valid = auth.assert(c.webauthn_request_options!.challenge);
    for (const webauthn of [
      { ...valid, response: { ...valid.response, authenticatorData: 'not base64url!' } },
      { ...valid, type: 'password' },
      { ...valid, response: 'nope' },
    ]) {
      const r = await post('required', '/verify', { ...body, webauthn });
      expect(r).toEqual(rejected('invalid_request'));
    }
    // A missing stable_id beside the assertion is a request error too.
    expect(await post('required', '/verify', { ...body, stable_id: undefined, webauthn: valid })).toEqual(rejected('invalid_request'));
    const r = await post('required', '/verify', { ...body, webauthn: valid });
    expect(r).toEqual({ status: 200, body: { success: true, token: expect.any(String) } });
  });

  it('registration options carry the spec fields, exclude existing credentials, and work under the API prefix', async () => {
    const auth = await register('preferred', 'EdDSA', 'site-a', 'opts');
    const { status, body } = await postJson(servers.get('preferred')!.server.at('/api/captcha/webauthn/register/options'), {
      site_key: 'site-a',
      stable_id: 'opts',
    });
    expect(status).toBe(200);
    expect(body.session_id).toEqual(expect.any(String));
    expect(body.options).toMatchObject({
      challenge: expect.any(String),
      rp: { id: RP_ID, name: 'Ariadne' },
      user: { id: expect.any(String), name: 'opts', displayName: 'opts' },
      attestation: 'none',
      authenticatorSelection: { userVerification: 'required' },
      pubKeyCredParams: [
        { alg: -8, type: 'public-key' },
        { alg: -7, type: 'public-key' },
        { alg: -257, type: 'public-key' },
      ],
      excludeCredentials: [{ id: auth.id, type: 'public-key', transports: ['internal'] }],
    });
  });

  it('required: a missing assertion is webauthn_required, also for a stable_id with no passkey', async () => {
    await register('required', 'ES256', 'site-a', 'req-has');
    expect(await verifyWith('required', 'site-a', 'req-has')).toEqual(rejected('webauthn_required'));
    const none = await challenge('required', 'site-a', 'req-none');
    expect(none.requirements.webauthn).toEqual({ mode: 'required' });
    expect(none.webauthn_request_options).toBeUndefined();
    expect(await verifyWith('required', 'site-a', 'req-none')).toEqual(rejected('webauthn_required'));
    expect(await verifyWith('required', 'site-a', undefined)).toEqual(rejected('webauthn_required'));
    // An assertion by a passkey the stable_id does not have is no way around it.
    const stranger = new SoftAuthenticator('ES256', ORIGIN, RP_ID);
    expect(await verifyWith('required', 'site-a', 'req-none', (ch) => stranger.assert(ch))).toEqual(rejected('webauthn_failed'));
  });

  it('preferred: offers options only to a stable_id with a passkey that the client can use; an absent assertion passes, a bad one fails', async () => {
    const auth = await register('preferred', 'ES256', 'site-a', 'pref');
    const c = await challenge('preferred', 'site-a', 'pref');
    expect(c.requirements.webauthn).toEqual({ mode: 'preferred' });
    expect(c.webauthn_request_options!.allowCredentials).toHaveLength(1);
    expect((await challenge('preferred', 'site-a', 'nobody')).webauthn_request_options).toBeUndefined();
    expect((await challenge('preferred', 'site-a')).requirements.webauthn).toEqual({ mode: 'none' });

    expect((await verifyWith('preferred', 'site-a', 'pref')).body).toEqual({ success: true, token: expect.any(String) });
    expect((await verifyWith('preferred', 'site-a', 'pref', (ch) => auth.assert(ch))).status).toBe(200);
    expect(await verifyWith('preferred', 'site-a', 'pref', (ch) => auth.assert(ch, { origin: 'https://evil.example.net' }))).toEqual(
      rejected('webauthn_failed'),
    );
    // An assertion needs the stable_id it is for.
    expect(await verifyWith('preferred', 'site-a', undefined, (ch) => auth.assert(ch))).toEqual({
      status: 400,
      body: { success: false, score: 0, error_code: 'invalid_request', detail: 'stable_id: required with a webauthn assertion' },
    });
  });

  it('client_capabilities.webauthn_available: false gets no request options; leaving it out is no refusal', async () => {
    await register('preferred', 'ES256', 'site-a', 'cap');
    await register('required', 'ES256', 'site-a', 'cap');
    const unable = await challenge('preferred', 'site-a', 'cap', false);
    expect(unable.webauthn_request_options).toBeUndefined();
    expect(unable.requirements.webauthn).toEqual({ mode: 'none' });
    // Required stays required: the client is told, and /verify without an assertion fails.
    const unableRequired = await challenge('required', 'site-a', 'cap', false);
    expect(unableRequired.webauthn_request_options).toBeUndefined();
    expect(unableRequired.requirements.webauthn).toEqual({ mode: 'required' });
    const unstated = await post('preferred', '/challenge', { site_key: 'site-a', stable_id: 'cap' });
    expect(unstated.body.webauthn_request_options.allowCredentials).toHaveLength(1);
    expect((await challenge('preferred', 'site-a', 'cap', true)).webauthn_request_options!.allowCredentials).toHaveLength(1);
  });

  it('off: registration routes answer 404 and challenges ask for nothing', async () => {
    const r = await post('off', '/webauthn/register/options', { site_key: 'site-a', stable_id: 'u' });
    expect(r).toEqual({ status: 404, body: { success: false, error_code: 'not_found', detail: 'passkeys are off' } });
    const c = await challenge('off', 'site-a', 'u');
    expect(c.requirements.webauthn).toEqual({ mode: 'none' });
    expect(c.webauthn_request_options).toBeUndefined();
  });

  describe('rejections, each with its code', () => {
    it('registration: wrong origin, wrong RP id, wrong challenge, replayed session, garbage base64url', async () => {
      const auth = new SoftAuthenticator('ES256', ORIGIN, RP_ID);
      for (const over of [
        { origin: 'https://evil.example.net' },
        { rpId: 'evil.example.net' },
        { challenge: randomBytes(32).toString('base64url') },
      ]) {
        const { session_id, options } = await openRegistration('required', 'site-a', 'reg-bad');
        expect(await post('required', '/webauthn/register/verify', { session_id, response: auth.register(options, over) })).toEqual({
          status: 400,
          body: { success: false, error_code: 'registration_failed' },
        });
      }
      const { session_id, options } = await openRegistration('required', 'site-a', 'reg-bad');
      expect((await post('required', '/webauthn/register/verify', { session_id, response: auth.register(options) })).status).toBe(200);
      const replay = new SoftAuthenticator('ES256', ORIGIN, RP_ID).register(options);
      expect(await post('required', '/webauthn/register/verify', { session_id, response: replay })).toEqual({
        status: 400,
        body: { success: false, error_code: 'registration_session_not_found', detail: 'already used' },
      });
      expect(await post('required', '/webauthn/register/verify', { session_id: 'not-a-session', response: replay })).toEqual(
        rejected('registration_session_not_found'),
      );

      const fresh = await openRegistration('required', 'site-a', 'reg-bad');
      const good = new SoftAuthenticator('EdDSA', ORIGIN, RP_ID).register(fresh.options);
      const garbage = { ...good, response: { ...good.response, clientDataJSON: '***' } };
      expect(await post('required', '/webauthn/register/verify', { session_id: fresh.session_id, response: garbage })).toEqual({
        status: 400,
        body: { success: false, error_code: 'invalid_request', detail: 'response.response.clientDataJSON' },
      });
      const notCbor = { ...good, response: { ...good.response, attestationObject: 'AAAAAAAA' } };
      expect(await post('required', '/webauthn/register/verify', { session_id: fresh.session_id, response: notCbor })).toEqual(
        rejected('registration_failed'),
      );
      expect(await post('required', '/webauthn/register/verify', { session_id: fresh.session_id, response: 'nope' })).toEqual(
        rejected('invalid_request'),
      );
    });

    it('assertion: wrong origin, wrong RP id, wrong challenge, tampered signature, garbage base64url', async () => {
      const auth = await register('required', 'ES256', 'site-a', 'as-bad');
      const v = (assert: (ch: string) => unknown) => verifyWith('required', 'site-a', 'as-bad', assert);
      expect(await v((ch) => auth.assert(ch, { origin: 'https://evil.example.net' }))).toEqual(rejected('webauthn_failed'));
      expect(await v((ch) => auth.assert(ch, { rpId: 'evil.example.net' }))).toEqual(rejected('webauthn_failed'));
      // The challenge of another maze challenge: valid in itself, not this one's.
      const other = await challenge('required', 'site-a', 'as-bad');
      expect(await v(() => auth.assert(other.webauthn_request_options!.challenge))).toEqual(rejected('webauthn_failed'));
      expect(
        await v((ch) => {
          const a = auth.assert(ch);
          const sig = Buffer.from(a.response.signature, 'base64url');
          sig[10]! ^= 0xff;
          return { ...a, response: { ...a.response, signature: sig.toString('base64url') } };
        }),
      ).toEqual(rejected('webauthn_failed'));
      expect(
        await v((ch) => {
          const a = auth.assert(ch);
          return { ...a, response: { ...a.response, authenticatorData: '%%%' } };
        }),
      ).toEqual({
        status: 400,
        body: { success: false, score: 0, error_code: 'invalid_request', detail: 'webauthn.response.authenticatorData' },
      });
      expect(await v((ch) => ({ ...auth.assert(ch), type: 'password' }))).toEqual(rejected('invalid_request'));
      // After all that, the passkey still works.
      expect((await v((ch) => auth.assert(ch))).status).toBe(200);
    });

    it('assertion: unknown credential, another stable_id or site_key', async () => {
      const auth = await register('required', 'EdDSA', 'site-a', 'owner');
      await register('required', 'EdDSA', 'site-a', 'someone');
      await register('required', 'EdDSA', 'site-b', 'owner');
      const unknown = new SoftAuthenticator('EdDSA', ORIGIN, RP_ID);
      expect(await verifyWith('required', 'site-a', 'owner', (ch) => unknown.assert(ch))).toEqual(rejected('webauthn_failed'));
      expect(await verifyWith('required', 'site-a', 'someone', (ch) => auth.assert(ch))).toEqual(rejected('webauthn_failed'));
      expect(await verifyWith('required', 'site-b', 'owner', (ch) => auth.assert(ch))).toEqual(rejected('webauthn_failed'));
      expect((await verifyWith('required', 'site-a', 'owner', (ch) => auth.assert(ch))).status).toBe(200);
    });

    it('assertion: a counter that does not advance is webauthn_failed, never a 5xx', async () => {
      const auth = await register('required', 'ES256', 'site-a', 'counter', true);
      auth.signCount = 41;
      expect((await verifyWith('required', 'site-a', 'counter', (ch) => auth.assert(ch))).status).toBe(200);
      auth.signCount = 41;
      expect(await verifyWith('required', 'site-a', 'counter', (ch) => auth.assert(ch))).toEqual(rejected('webauthn_failed'));
      auth.signCount = 3;
      expect(await verifyWith('required', 'site-a', 'counter', (ch) => auth.assert(ch))).toEqual(rejected('webauthn_failed'));
      expect((await servers.get('required')!.credentials.get(auth.id))?.counter).toBe(42);
      auth.signCount = 100;
      expect((await verifyWith('required', 'site-a', 'counter', (ch) => auth.assert(ch))).status).toBe(200);
    });
  });
});

/**
 * The passkey door over real HTTP (POST /passkey), with software authenticators: closed unless a
 * site opens it, a returning passkey passes without a maze once per challenge, another user's or a
 * cloned authenticator is refused, and the per-passkey hourly rate holds at its boundary.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import type { CredentialStore } from '../../src/store/credentials/CredentialStore.js';
import { openFileCredentialStore } from '../../src/store/credentials/FileCredentialStore.js';
import { postJson } from '../helpers/client.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { secretOf, sitesSnapshot } from '../helpers/sites.js';
import { registerPasskey } from '../helpers/registerPasskey.js';
import { SoftAuthenticator } from '../helpers/softAuthenticator.js';
import { clockFromHourStart } from '../helpers/clockWindows.js';

const ORIGIN = 'https://shop.example.com';
const RP_ID = 'example.com';
const PER_HOUR = 3;
const passkeys = (extra: object = {}) => ({ mode: 'preferred', rp_id: RP_ID, origins: [ORIGIN], ...extra });
const sitesFile = {
  sites: {
    door: {
      hostnames: ['shop.example.com'],
      secret: secretOf('door'),
      policy: { passkeys: passkeys({ without_maze: { per_hour: PER_HOUR } }) },
    },
    closed: { hostnames: ['shop.example.com'], secret: secretOf('closed'), policy: { passkeys: passkeys() } },
  },
};

let server: TestServer;
let credentials: CredentialStore;
let dataDir: string;
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'ariadne-passkey-door-'));
  credentials = await openFileCredentialStore(dataDir);
  const config = { mode: 'preferred' as const, rpId: RP_ID, origins: [ORIGIN], rpName: 'Ariadne' };
  // The passkey door's rate is hourly: no hour turns during the file.
  server = await startTestServer({ webauthn: config }, { passkeys: { config, credentials }, sitesFile, now: clockFromHourStart() });
});
afterAll(async () => {
  await server.close(1000);
  await credentials.close();
  await rm(dataDir, { recursive: true, force: true });
});

const post = (route: string, body: unknown) => postJson(server.at(route), body, { origin: ORIGIN });

const register = (siteKey: string, stableId: string) => registerPasskey(server.at, { origin: ORIGIN, rpId: RP_ID }, siteKey, stableId);

async function challenge(siteKey: string, stableId: string) {
  const r = await post('/challenge', { site_key: siteKey, stable_id: stableId });
  expect(r.status).toBe(200);
  return r.body;
}

/** POST /passkey for a fresh challenge (or `ch`) with `auth`'s assertion over it. */
async function pass(auth: SoftAuthenticator, siteKey: string, stableId: string, ch?: any) {
  const c = ch ?? (await challenge(siteKey, stableId));
  const webauthn = auth.assert(c.webauthn_request_options?.challenge ?? 'AAAA');
  return { c, r: await post('/passkey', { challenge_id: c.id, site_key: siteKey, session_id: 'sess-p', stable_id: stableId, webauthn }) };
}

const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));

describe('the passkey door', () => {
  it('is closed (404) for a site that does not open it, and not announced there', async () => {
    const auth = await register('closed', 'amy');
    const c = await challenge('closed', 'amy');
    expect(c.webauthn_request_options).toBeDefined();
    expect(c.passkey_door).toBeUndefined();
    const { r } = await pass(auth, 'closed', 'amy', c);
    expect(r).toMatchObject({ status: 404, body: { success: false, error_code: 'not_found' } });
  });

  it('passes a returning passkey without a maze, once per challenge, up to its hourly rate', async () => {
    const before = await challenge('door', 'bea');
    expect(before.passkey_door).toBeUndefined(); // no passkey yet: nothing to offer
    const auth = await register('door', 'bea');
    const { c, r } = await pass(auth, 'door', 'bea');
    expect(c.passkey_door).toBe(true);
    expect(r).toMatchObject({ status: 200, body: { success: true, token: expect.any(String) } });
    expect(claimsOf(r.body.token)).toMatchObject({
      method: 'passkey',
      score: 1,
      challenge_id: c.id,
      site_key: 'door',
      hostname: 'shop.example.com',
    });
    const sv = await postJson(server.at('/siteverify'), { token: r.body.token, session_id: 'sess-p', secret: secretOf('door') });
    expect(sv.body).toMatchObject({ success: true, score: 1 });
    // The same challenge again, even with an assertion that verifies: spent, and not counted (a
    // replay must not use up the holder's hour).
    for (let i = 0; i < PER_HOUR; i++) {
      expect((await pass(auth, 'door', 'bea', c)).r).toMatchObject({ status: 400, body: { error_code: 'challenge_not_found' } });
    }
    for (let use = 2; use <= PER_HOUR; use++) expect((await pass(auth, 'door', 'bea')).r.status).toBe(200);
    const over = (await pass(auth, 'door', 'bea')).r;
    expect(over).toMatchObject({
      status: 429,
      body: { success: false, error_code: 'passkey_rate_exceeded', detail: `this passkey passed ${PER_HOUR} times this hour` },
    });
  });

  it("refuses another user's passkey and a cloned authenticator (webauthn_failed)", async () => {
    const cat = await register('door', 'cat');
    await register('door', 'dan');
    expect((await pass(cat, 'door', 'dan')).r).toMatchObject({ status: 400, body: { error_code: 'webauthn_failed' } });
    expect((await pass(cat, 'door', 'cat')).r.status).toBe(200);
    const clone = new SoftAuthenticator('ES256', ORIGIN, RP_ID, true, { credentialId: cat.credentialId, privateKey: cat.privateKey });
    expect((await pass(clone, 'door', 'cat')).r).toMatchObject({ status: 400, body: { error_code: 'webauthn_failed' } });
    // Only its counter was at fault: the same key with a counter ahead passes.
    clone.signCount = cat.signCount + 5;
    expect((await pass(clone, 'door', 'cat')).r.status).toBe(200);
  });

  it('answers a malformed request with invalid_request before any check', async () => {
    const c = await challenge('door', 'eve');
    const r = await post('/passkey', { challenge_id: c.id, site_key: 'door', session_id: 's', stable_id: 'eve' });
    expect(r).toMatchObject({ status: 400, body: { error_code: 'invalid_request' } });
    const bad = await post('/passkey', {
      challenge_id: c.id,
      site_key: 'door',
      session_id: 's',
      stable_id: 'eve',
      webauthn: { id: '', rawId: '', type: 'x', response: { clientDataJSON: '', authenticatorData: '', signature: '' } },
    });
    expect(bad).toMatchObject({ status: 400, body: { error_code: 'invalid_request' } });
  });

  it('a sites file cannot open the door with passkeys off', () => {
    const config = loadConfig({ SIGNING_SECRET: 'x'.repeat(43) });
    if (!config.ok) throw new Error(config.error);
    const file = {
      sites: { s: { hostnames: ['a.example'], secret: secretOf('s'), policy: { passkeys: { mode: 'off', without_maze: {} } } } },
    };
    expect(() => sitesSnapshot(file, config.config)).toThrow(/site "s": policy\.passkeys\.without_maze: needs passkeys on/);
  });
});

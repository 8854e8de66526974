/**
 * A returning passkey past a tightened keyboard door, over real HTTP with software authenticators:
 * on a site that opened the passkey door, a keyboard solve sent with a passkey registered for its
 * stable_id is scored people first while the door is strict (pinned, or the client over its
 * budget), its token says `passkey`, and it spends the passkey door's own hourly rate; another
 * user's passkey or a cloned authenticator is refused; a site without the passkey door keeps its
 * keyboard door tight. A challenge in a surge announces every door the site has.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config.js';
import type { Challenge } from '../../src/core/challenge/issueChallenge.js';
import type { RawEvent } from '../../src/kernel/types.js';
import type { CredentialStore } from '../../src/store/credentials/CredentialStore.js';
import { openFileCredentialStore } from '../../src/store/credentials/FileCredentialStore.js';
import { buildSubmission, postJson, postVerify } from '../helpers/client.js';
import { personFor, scriptFor } from '../helpers/keyboardSolvesFor.js';
import { testIssuer } from '../helpers/privacyPassIssuer.js';
import { type TestServer, startTestServer, testKernel } from '../helpers/server.js';
import { secretOf } from '../helpers/sites.js';
import { registerPasskey } from '../helpers/registerPasskey.js';
import { SoftAuthenticator } from '../helpers/softAuthenticator.js';
import { clockFromHourStart } from '../helpers/clockWindows.js';

const ORIGIN = 'https://shop.example.com';
const RP_ID = 'example.com';
const PER_HOUR = 2;
const door = { mode: 'preferred', rp_id: RP_ID, origins: [ORIGIN], without_maze: { per_hour: PER_HOUR } };
const site = (name: string, policy: object) => ({ hostnames: ['shop.example.com'], secret: secretOf(name), policy });

let server: TestServer;
let credentials: CredentialStore;
let dataDir: string;
beforeAll(async () => {
  const issuer = await testIssuer('issuer.example');
  const sitesFile = {
    sites: {
      strict: site('strict', { keyboard: { door: 'strict' }, passkeys: door }),
      // Passkeys on, the passkey door closed: a passkey does not loosen the keyboard door.
      closed: site('closed', { keyboard: { door: 'strict' }, passkeys: { ...door, without_maze: undefined } }),
      open: site('open', { passkeys: door }),
      budgeted: site('budgeted', { keyboard: { floor_per_minute: 1000, client_per_hour: 1 }, passkeys: door }),
      surge: site('surge', {
        keyboard: { door: 'surge' },
        passkeys: door,
        privacy_pass: { issuers: [{ name: issuer.name, token_key: issuer.tokenKey }] },
      }),
    },
  };
  dataDir = await mkdtemp(path.join(tmpdir(), 'ariadne-passkey-keyboard-'));
  credentials = await openFileCredentialStore(dataDir);
  const config = { mode: 'preferred' as const, rpId: RP_ID, origins: [ORIGIN], rpName: 'Ariadne' };
  server = await startTestServer(
    { scoring: defaultConfig().scoring, webauthn: config, trustProxy: 1, powFreePerMinute: 1_000_000 },
    // The passkey door's rate and the client budget are hourly: no hour turns during the file.
    { passkeys: { config, credentials }, sitesFile, now: clockFromHourStart() },
  );
});
afterAll(async () => {
  await server.close(1000);
  await credentials.close();
  await rm(dataDir, { recursive: true, force: true });
});

const post = (route: string, body: unknown) => postJson(server.at(route), body, { origin: ORIGIN });
const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));

const register = (siteKey: string, stableId: string) => registerPasskey(server.at, { origin: ORIGIN, rpId: RP_ID }, siteKey, stableId);

async function challenge(siteKey: string, stableId: string): Promise<Challenge> {
  const r = await post('/challenge', { site_key: siteKey, stable_id: stableId });
  expect(r.status).toBe(200);
  return r.body as Challenge;
}

let sessions = 0;
/** A client address of each person's own, so that no test spends another's per-client keyboard budget. */
const addresses = new Map<string, string>();
const addressOf = (stableId: string) =>
  addresses.get(stableId) ?? addresses.set(stableId, `198.51.100.${addresses.size + 1}`).get(stableId)!;
/**
 * A keyboard solve of `ch` (`events`) for `stableId`, with `auth`'s assertion over the challenge
 * when given, at the keyboard proof of work the challenge asks, from the person's own address;
 * then /siteverify when it passed.
 */
async function solve(ch: Challenge, stableId: string, events: RawEvent[], auth?: SoftAuthenticator) {
  const kernel = await testKernel();
  const pow = kernel.solvePow(ch.pow_challenge, ch.pow_difficulty_keyboard, 0, 1 << 26);
  const sessionId = `pk-kb-${++sessions}`;
  const body = buildSubmission(kernel, ch, { events, sessionId, pow: { nonce: pow.nonce!, hash: pow.hash! } });
  body.stable_id = stableId;
  if (auth !== undefined) body.webauthn = auth.assert(ch.webauthn_request_options?.challenge ?? 'AAAA');
  const v = await postVerify(server, body, { origin: ORIGIN, 'x-forwarded-for': addressOf(stableId) });
  if (v.body.success !== true) return { status: v.status, verify: v.body, claims: undefined, siteverify: undefined };
  const s = await postJson(server.at('/siteverify'), { token: v.body.token, session_id: sessionId, secret: secretOf(ch.site_key) });
  return { status: v.status, verify: v.body, claims: claimsOf(v.body.token), siteverify: s.body };
}

/** POST /passkey (the door without a maze) for a fresh challenge. */
async function passDoor(auth: SoftAuthenticator, siteKey: string, stableId: string) {
  const c = await challenge(siteKey, stableId);
  const webauthn = auth.assert(c.webauthn_request_options!.challenge);
  return post('/passkey', { challenge_id: c.id, site_key: siteKey, session_id: 'pk-door', stable_id: stableId, webauthn });
}

describe('a keyboard solve with a returning passkey, the keyboard door pinned strict', () => {
  it('a script-like solve is refused without the passkey and passes with it, its token saying passkey', async () => {
    const auth = await register('strict', 'ann');
    const bare = await challenge('strict', 'ann');
    expect(bare).toMatchObject({ keyboard_door: 'strict', passkey_door: true });
    expect((await solve(bare, 'ann', await scriptFor(bare))).verify).toMatchObject({ success: false, error_code: 'behavioral_rejected' });

    const ch = await challenge('strict', 'ann');
    const ok = await solve(ch, 'ann', await scriptFor(ch), auth);
    expect(ok.verify).toMatchObject({ success: true });
    expect(ok.claims).toMatchObject({ method: 'passkey', input_type: 'keyboard', challenge_id: ch.id });
    // Scored by the people-first model: its score, not the door's fixed 1.
    expect(ok.claims.score).toBeLessThan(1);
    expect(ok.siteverify).toMatchObject({ success: true, method: 'passkey', input_type: 'keyboard' });
  });

  it("spends the passkey door's hourly rate: the door and keyboard solves together, refused past it", async () => {
    const auth = await register('strict', 'bob');
    expect((await passDoor(auth, 'strict', 'bob')).status).toBe(200); // 1st use of the hour: the door
    const second = await challenge('strict', 'bob');
    expect((await solve(second, 'bob', await personFor(second), auth)).claims).toMatchObject({ method: 'passkey' }); // 2nd: PER_HOUR
    const third = await challenge('strict', 'bob');
    const over = await solve(third, 'bob', await personFor(third), auth);
    expect(over).toMatchObject({
      status: 429,
      verify: { success: false, error_code: 'passkey_rate_exceeded', detail: `this passkey passed ${PER_HOUR} times this hour` },
    });
    // And the door too: one rate for both.
    expect((await passDoor(auth, 'strict', 'bob')).body).toMatchObject({ error_code: 'passkey_rate_exceeded' });
    // Without the passkey the person is judged as anyone is at a strict door.
    const fourth = await challenge('strict', 'bob');
    expect((await solve(fourth, 'bob', await personFor(fourth))).siteverify).toMatchObject({ success: true, method: 'keyboard_strict' });
  });

  it("refuses another user's passkey and a cloned authenticator (webauthn_failed)", async () => {
    const cy = await register('strict', 'cy');
    await register('strict', 'dee');
    const theirs = await challenge('strict', 'dee');
    expect((await solve(theirs, 'dee', await personFor(theirs), cy)).verify).toMatchObject({
      success: false,
      error_code: 'webauthn_failed',
    });
    const mine = await challenge('strict', 'cy');
    expect((await solve(mine, 'cy', await personFor(mine), cy)).claims).toMatchObject({ method: 'passkey' });
    const clone = new SoftAuthenticator('ES256', ORIGIN, RP_ID, true, { credentialId: cy.credentialId, privateKey: cy.privateKey });
    const cloned = await challenge('strict', 'cy');
    expect((await solve(cloned, 'cy', await scriptFor(cloned), clone)).verify).toMatchObject({
      success: false,
      error_code: 'webauthn_failed',
    });
    // Only its counter was at fault: the same key with a counter ahead passes.
    clone.signCount = cy.signCount + 5;
    const ahead = await challenge('strict', 'cy');
    expect((await solve(ahead, 'cy', await scriptFor(ahead), clone)).claims).toMatchObject({ method: 'passkey' });
  });
});

describe('where the passkey does not lift the keyboard door', () => {
  it('a site with passkeys on and the passkey door closed keeps its strict door for a passkey holder', async () => {
    const auth = await register('closed', 'eli');
    const ch = await challenge('closed', 'eli');
    expect(ch.passkey_door).toBeUndefined();
    expect((await solve(ch, 'eli', await scriptFor(ch), auth)).verify).toMatchObject({ success: false, error_code: 'behavioral_rejected' });
    const person = await challenge('closed', 'eli');
    expect((await solve(person, 'eli', await personFor(person), auth)).siteverify).toMatchObject({
      success: true,
      method: 'keyboard_strict',
    });
  });

  it('at a people-first door a keyboard token stays keyboard, and spends none of the rate', async () => {
    const auth = await register('open', 'fay');
    for (let i = 0; i <= PER_HOUR; i++) {
      const ch = await challenge('open', 'fay');
      expect(ch.keyboard_door).toBe('people_first');
      expect((await solve(ch, 'fay', await personFor(ch), auth)).siteverify).toMatchObject({ success: true, method: 'keyboard' });
    }
    expect((await passDoor(auth, 'open', 'fay')).status).toBe(200);
  });
});

describe('a client over its keyboard budget', () => {
  it('is scored strictly, unless it comes with its passkey', async () => {
    const auth = await register('budgeted', 'gus');
    const methods = [];
    for (const withPasskey of [false, false, true]) {
      const ch = await challenge('budgeted', 'gus');
      methods.push((await solve(ch, 'gus', await personFor(ch), withPasskey ? auth : undefined)).siteverify?.method);
    }
    expect(methods).toEqual(['keyboard', 'keyboard_strict', 'passkey']);
  });
});

describe('a challenge in a surge', () => {
  it('announces every door the site has: Privacy Pass, the passkey door and the tightened keyboard door', async () => {
    await register('surge', 'hal');
    expect(await challenge('surge', 'hal')).toMatchObject({
      keyboard_door: 'surge',
      privacy_pass: true,
      passkey_door: true,
      webauthn_request_options: expect.any(Object),
    });
  });
});

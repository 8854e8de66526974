/**
 * The Privacy Pass door over real HTTP: real type 0x0002 tokens from a test issuer built with
 * @cloudflare/privacypass-ts, redeemed once for a session token without a maze; tokens for
 * another challenge, origin or key, of another type, or malformed, get stable 4xx codes.
 */
import { WWWAuthenticateHeader } from '@cloudflare/privacypass-ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redemptionContext } from '../../src/core/privacyPass/tokenChallenges.js';
import { loadConfig } from '../../src/config.js';
import { postJson } from '../helpers/client.js';
import { firstResponse } from '../helpers/rawHttp.js';
import { type TestIssuer, testIssuer } from '../helpers/privacyPassIssuer.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { secretOf, sitesSnapshot } from '../helpers/sites.js';
import { clockFromHourStart } from '../helpers/clockWindows.js';

const SHOP = 'https://shop.example';
let server: TestServer;
let trusted: TestIssuer;
let rotated: TestIssuer;
let stranger: TestIssuer;
let host: string;

beforeAll(async () => {
  [trusted, rotated, stranger] = await Promise.all([
    testIssuer('issuer.example'),
    testIssuer('issuer.example'),
    testIssuer('other.example'),
  ]);
  const pp = {
    issuers: [
      { name: trusted.name, token_key: trusted.tokenKey },
      { name: rotated.name, token_key: rotated.tokenKey },
    ],
  };
  server = await startTestServer(
    {},
    {
      sitesFile: {
        sites: {
          pp: { hostnames: ['shop.example'], secret: secretOf('pp'), policy: { privacy_pass: pp } },
          plain: { hostnames: ['shop.example'], secret: secretOf('plain') },
        },
      },
    },
  );
  host = new URL(server.at('/')).host;
}, 60_000);
afterAll(async () => {
  await server.close();
});

async function challenge(siteKey = 'pp') {
  const r = await postJson(server.at('/challenge'), { site_key: siteKey }, { origin: SHOP });
  expect(r.status).toBe(200);
  return r.body;
}

async function door(challengeId: string, authorization?: string, siteKey = 'pp', sessionId = 'sess-1') {
  const q = new URLSearchParams({ challenge_id: challengeId, site_key: siteKey, session_id: sessionId });
  const res = await fetch(server.at(`/privacy-pass?${q}`), { headers: { origin: SHOP, ...(authorization ? { authorization } : {}) } });
  return { status: res.status, wwwAuthenticate: res.headers.get('www-authenticate'), body: (await res.json()) as any };
}

const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));

describe('the Privacy Pass door', () => {
  it('is announced in challenges of sites that trust issuers, and not in others', async () => {
    expect((await challenge('pp')).privacy_pass).toBe(true);
    expect((await challenge('plain')).privacy_pass).toBeUndefined();
    const closed = await door((await challenge('plain')).id, undefined, 'plain');
    expect(closed).toMatchObject({ status: 404, body: { success: false, error_code: 'not_found' } });
  });

  it('admits a same-origin GET by its Host (a browser sends no Origin with it, and Sec-Fetch-Site: same-origin)', async () => {
    const ch = await challenge();
    const q = new URLSearchParams({ challenge_id: ch.id, site_key: 'pp', session_id: 'sess-1' });
    const get = async (headers: string) =>
      firstResponse(server.port, [`GET /privacy-pass?${q} HTTP/1.1\r\nhost: shop.example\r\n${headers}\r\n`]);
    expect(await get('sec-fetch-site: same-origin\r\n')).toMatch(/^HTTP\/1\.1 401 [\s\S]*"privacy_pass_required"/);
    // Without it, or from another site, the Origin header is required as ever.
    expect(await get('')).toMatch(/^HTTP\/1\.1 403 [\s\S]*"hostname_not_allowed"/);
    expect(await get('sec-fetch-site: cross-site\r\n')).toMatch(/^HTTP\/1\.1 403 [\s\S]*"hostname_not_allowed"/);
  });

  it('answers 401 with one PrivateToken challenge per issuer, bound to the challenge id and the host', async () => {
    const ch = await challenge();
    const r = await door(ch.id);
    expect(r).toMatchObject({ status: 401, body: { success: false, error_code: 'privacy_pass_required' } });
    const parsed = WWWAuthenticateHeader.parse(r.wwwAuthenticate!);
    expect(parsed).toHaveLength(1);
    const c = parsed[0]!.challenge;
    expect(c.tokenType).toBe(0x0002);
    expect(c.issuerName).toBe('issuer.example');
    expect(Buffer.from(c.redemptionContext)).toEqual(redemptionContext(ch.id));
    expect(c.originInfo).toEqual([host]);
    // The first key listed for a name is the one announced.
    expect(Buffer.from(parsed[0]!.tokenKey).toString('base64url')).toBe(trusted.tokenKey);
  });

  it('turns a valid token into a session token once; the same token again is refused', async () => {
    const ch = await challenge();
    const auth = (await trusted.answer([(await door(ch.id)).wwwAuthenticate!]))!;
    const ok = await door(ch.id, auth);
    expect(ok).toMatchObject({ status: 200, body: { success: true, token: expect.any(String) } });
    expect(claimsOf(ok.body.token)).toMatchObject({
      method: 'privacy_pass',
      score: 1,
      challenge_id: ch.id,
      session_id: 'sess-1',
      site_key: 'pp',
      hostname: 'shop.example',
    });
    expect(claimsOf(ok.body.token).input_type).toBeUndefined();
    const sv = await postJson(server.at('/siteverify'), { token: ok.body.token, session_id: 'sess-1', secret: secretOf('pp') });
    expect(sv.body).toMatchObject({ success: true, score: 1, challenge_id: ch.id });
    const again = await door(ch.id, auth);
    expect(again).toMatchObject({ status: 400, body: { error_code: 'challenge_not_found' } });
  });

  it("accepts a token under an issuer's second (rotated) key", async () => {
    const ch = await challenge();
    const auth = await rotated.tokenFor({ challengeId: ch.id, host });
    expect(await door(ch.id, auth)).toMatchObject({ status: 200, body: { success: true } });
  });

  it('refuses a token for another challenge, another origin or an untrusted key (privacy_pass_rejected)', async () => {
    const [mine, other] = [await challenge(), await challenge()];
    const forOther = await trusted.tokenFor({ challengeId: other.id, host });
    expect(await door(mine.id, forOther)).toMatchObject({
      status: 403,
      body: { error_code: 'privacy_pass_rejected', detail: 'the token answers another challenge or origin' },
    });
    const elsewhere = await trusted.tokenFor({ challengeId: mine.id, host: 'evil.example' });
    expect(await door(mine.id, elsewhere)).toMatchObject({
      status: 403,
      body: { error_code: 'privacy_pass_rejected', detail: 'the token answers another challenge or origin' },
    });
    const untrustedName = await stranger.tokenFor({ challengeId: mine.id, host });
    expect(await door(mine.id, untrustedName)).toMatchObject({ status: 403, body: { error_code: 'privacy_pass_rejected' } });
    // Same issuer name, a key the site never listed.
    const impostor = await testIssuer('issuer.example');
    const untrustedKey = await impostor.tokenFor({ challengeId: mine.id, host });
    expect(await door(mine.id, untrustedKey)).toMatchObject({
      status: 403,
      body: { error_code: 'privacy_pass_rejected', detail: "the token key is not one of issuer.example's trusted keys" },
    });
    // None of these spent the challenge: a valid token still passes.
    expect(await door(mine.id, await trusted.tokenFor({ challengeId: mine.id, host }))).toMatchObject({ status: 200 });
  }, 30_000);

  it('refuses a token whose signature does not verify', async () => {
    const ch = await challenge();
    const auth = await trusted.tokenFor({ challengeId: ch.id, host });
    const bytes = Buffer.from(/token="?([A-Za-z0-9_-]+)/.exec(auth)![1]!, 'base64url');
    bytes.writeUInt8(bytes.readUInt8(bytes.length - 1) ^ 1, bytes.length - 1);
    const forged = `PrivateToken token="${bytes.toString('base64url')}"`;
    expect(await door(ch.id, forged)).toMatchObject({
      status: 403,
      body: { error_code: 'privacy_pass_rejected', detail: 'the token signature does not verify' },
    });
  });

  it('answers an unknown token type and a malformed header with stable 400 codes', async () => {
    const ch = await challenge();
    const auth = await trusted.tokenFor({ challengeId: ch.id, host });
    const bytes = Buffer.from(/token="?([A-Za-z0-9_-]+)/.exec(auth)![1]!, 'base64url');
    bytes.writeUInt16BE(0x0001, 0);
    expect(await door(ch.id, `PrivateToken token="${bytes.toString('base64url')}"`)).toMatchObject({
      status: 400,
      body: { error_code: 'privacy_pass_unsupported_type', detail: 'only token type 0x0002 (publicly verifiable, blind RSA) is accepted' },
    });
    for (const bad of ['PrivateToken token="AAI"', 'PrivateToken token="***"', 'PrivateToken nothing=here', 'PrivateToken ']) {
      const r = await door(ch.id, bad);
      expect(r.status, bad).toBe(400);
      expect(r.body.error_code, bad).toBe('privacy_pass_malformed');
    }
    // Another scheme is no answer: the challenges again.
    expect(await door(ch.id, 'Bearer abc')).toMatchObject({ status: 401, body: { error_code: 'privacy_pass_required' } });
  });

  it('checks its query and the challenge id', async () => {
    const ch = await challenge();
    const res = await fetch(server.at(`/privacy-pass?site_key=pp&session_id=s`), { headers: { origin: SHOP } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error_code: 'invalid_request', detail: 'challenge_id: required, at most 64 characters' });
    expect(await door('not-an-id')).toMatchObject({ status: 400, body: { error_code: 'challenge_not_found' } });
    expect(await door(ch.id, undefined, 'plain')).toMatchObject({ status: 404 });
    const elsewhere = await fetch(
      server.at(`/privacy-pass?${new URLSearchParams({ challenge_id: ch.id, site_key: 'pp', session_id: 's' })}`),
      { headers: { origin: 'https://evil.example' } },
    );
    expect(elsewhere.status).toBe(403);
  });
});

describe('naming issuers', () => {
  it('PRIVACY_PASS_ISSUERS takes name=token_key entries and refuses what is not a 2048-bit RSA key', () => {
    const secret = 'x'.repeat(43);
    const ok = loadConfig({ SIGNING_SECRET: secret, PRIVACY_PASS_ISSUERS: `${trusted.entry}, ${stranger.entry}` });
    expect(ok.ok && ok.config.privacyPassIssuers.map((i) => i.name)).toEqual(['issuer.example', 'other.example']);
    const bad = loadConfig({ SIGNING_SECRET: secret, PRIVACY_PASS_ISSUERS: 'issuer.example=AAAA' });
    expect(bad).toMatchObject({
      ok: false,
      error: expect.stringContaining('PRIVACY_PASS_ISSUERS: issuer issuer.example: token key is not a public key'),
    });
    const noName = loadConfig({ SIGNING_SECRET: secret, PRIVACY_PASS_ISSUERS: trusted.tokenKey });
    expect(noName).toMatchObject({ ok: false, error: expect.stringContaining('is not name=token_key') });
  });

  it('a sites file names issuers per site and reports a bad key by site and field', () => {
    const config = loadConfig({ SIGNING_SECRET: 'x'.repeat(43) });
    if (!config.ok) throw new Error(config.error);
    const file = (token_key: string) => ({
      sites: {
        pp: {
          hostnames: ['a.example'],
          secret: secretOf('pp'),
          policy: { privacy_pass: { issuers: [{ name: 'issuer.example', token_key }] } },
        },
      },
    });
    expect(sitesSnapshot(file(trusted.tokenKey), config.config).sites?.[0]?.policy.privacyPassIssuers).toEqual([
      { name: 'issuer.example', tokenKey: trusted.tokenKey },
    ]);
    expect(() => sitesSnapshot(file('AAAA'), config.config)).toThrow(
      /site "pp": policy\.privacy_pass\.issuers: issuer issuer\.example: token key is not a public key/,
    );
  });
});

describe('the rate limit of the Privacy Pass door', () => {
  it('counts requests carrying a token in the /verify bucket, at its boundary; asking for one is not counted', async () => {
    const limited = await startTestServer(
      { rateLimitPerMinute: 2, privacyPassIssuers: [{ name: trusted.name, tokenKey: trusted.tokenKey }] },
      // The limit's window is the clock's minute: none turns during the test.
      { now: clockFromHourStart() },
    );
    try {
      const at = (id: string, authorization?: string) =>
        fetch(limited.at(`/privacy-pass?${new URLSearchParams({ challenge_id: id, site_key: 'any-site', session_id: 's' })}`), {
          headers: authorization ? { authorization } : {},
        });
      const ch = (await postJson(limited.at('/challenge'), { site_key: 'any-site' })).body;
      expect(ch.privacy_pass).toBe(true);
      for (let i = 0; i < 5; i++) expect((await at(ch.id)).status).toBe(401);
      const h = new URL(limited.at('/')).host;
      expect((await at(ch.id, 'PrivateToken token="AAI"')).status).toBe(400);
      expect((await at(ch.id, await trusted.tokenFor({ challengeId: ch.id, host: h }))).status).toBe(200);
      const third = await at(ch.id, 'PrivateToken token="AAI"');
      expect(third.status).toBe(429);
      expect(await third.json()).toMatchObject({ error_code: 'rate_limited' });
      expect(third.headers.get('retry-after')).toMatch(/^\d+$/);
    } finally {
      await limited.close();
    }
  });
});

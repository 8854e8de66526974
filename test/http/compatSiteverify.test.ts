/**
 * Siteverify in reCAPTCHA's, hCaptcha's and Turnstile's shapes: the token /verify returned,
 * redeemed with the site's secret and no session id. The expected codes are the services'
 * documented ones, written out here rather than read from the server's tables.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryStore } from '../../src/store/MemoryStore.js';
import { type ConsumeResult, StoreUnavailableError } from '../../src/store/Store.js';
import { buildSubmission, postJson, postVerify } from '../helpers/client.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { secretOf } from '../helpers/sites.js';

const SHOP = 'https://shop.example';
const BLOG = 'https://blog.example';
const sitesFile = {
  sites: {
    shop: { hostnames: ['shop.example'], secret: secretOf('shop') },
    blog: { hostnames: ['blog.example'], secret: secretOf('blog') },
  },
};

interface Shape {
  service: string;
  path: string;
  duplicate: string;
  expired: string;
  otherSite: string;
  /** The fields of its successes beyond the common ones. */
  extras: Record<string, unknown>;
  /** Served beside Ariadne's own route, and chosen by a `response` field in a body read. */
  sharedPath: boolean;
  /** Whether a token made without an action (a v2 widget) is answered with Ariadne's score: not by reCAPTCHA's, as v2 answers. */
  scoreWithoutAction: boolean;
}

const SHAPES: Shape[] = [
  {
    service: 'reCAPTCHA',
    path: '/recaptcha/api/siteverify',
    duplicate: 'timeout-or-duplicate',
    expired: 'timeout-or-duplicate',
    otherSite: 'invalid-input-response',
    extras: {},
    sharedPath: false,
    scoreWithoutAction: false,
  },
  {
    service: 'hCaptcha',
    path: '/siteverify',
    duplicate: 'already-seen-response',
    expired: 'expired-input-response',
    otherSite: 'sitekey-secret-mismatch',
    extras: { credit: false },
    sharedPath: true,
    scoreWithoutAction: true,
  },
  {
    service: 'Turnstile',
    path: '/turnstile/v0/siteverify',
    duplicate: 'timeout-or-duplicate',
    expired: 'timeout-or-duplicate',
    otherSite: 'invalid-input-response',
    extras: { action: '', cdata: '' },
    sharedPath: false,
    scoreWithoutAction: true,
  },
];

let server: TestServer;
const clock = Date.UTC(2030, 0, 1);
beforeAll(async () => {
  server = await startTestServer({}, { sitesFile, now: () => clock });
});
afterAll(async () => {
  await server.close();
});

/**
 * A token of `site` as a compat widget gets it: /verify under a session id the page never sees;
 * with `action`, as reCAPTCHA v3's execute(key, {action}) makes it.
 */
async function tokenOf(site: 'shop' | 'blog', origin = site === 'shop' ? SHOP : BLOG, action?: string): Promise<string> {
  const ch = (await postJson(server.at('/challenge'), { site_key: site }, { origin })).body;
  const submission = buildSubmission(server.kernel, ch, { sessionId: `widget-${Math.random()}` });
  const r = await postVerify(server, action === undefined ? submission : { ...submission, action }, { origin });
  expect(r.body.success).toBe(true);
  return r.body.token;
}

type Answer = { status: number; contentType: string | null; body: any };

async function postForm(url: string, fields: Record<string, string>): Promise<Answer> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });
  return { status: res.status, contentType: res.headers.get('content-type'), body: await res.json() };
}

async function postRaw(url: string, body: unknown, contentType = 'application/json'): Promise<Answer> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, contentType: res.headers.get('content-type'), body: await res.json() };
}

const refusal = (...codes: string[]) => ({
  status: 200,
  contentType: 'application/json',
  body: { success: false, 'error-codes': codes, score: 0 },
});

describe.each(SHAPES)('$service shape at $path', (shape) => {
  const at = (prefix = '') => server.at(prefix + shape.path);

  it('redeems a token from a JSON body once; a replay answers its duplicate code', async () => {
    const t = await tokenOf('shop');
    const r = await postRaw(at(), { secret: secretOf('shop'), response: t });
    expect(r.status).toBe(200);
    expect(r.contentType).toBe('application/json');
    const score = shape.scoreWithoutAction ? { score: 1 } : {};
    expect(r.body).toEqual({
      success: true,
      challenge_ts: expect.any(String),
      hostname: 'shop.example',
      'error-codes': [],
      ...shape.extras,
      ...score,
      method: 'pointer',
    });
    expect(new Date(r.body.challenge_ts).toISOString()).toBe(r.body.challenge_ts);
    expect(await postRaw(at(), { secret: secretOf('shop'), response: t })).toEqual(refusal(shape.duplicate));
  });

  it('answers the action a token carries (reCAPTCHA v3), with the score', async () => {
    const t = await tokenOf('shop', SHOP, 'checkout/submit');
    const r = await postRaw(at(), { secret: secretOf('shop'), response: t });
    expect(r.body).toEqual({
      success: true,
      challenge_ts: expect.any(String),
      hostname: 'shop.example',
      'error-codes': [],
      ...shape.extras,
      action: 'checkout/submit',
      score: 1,
      method: 'pointer',
    });
  });

  it('reads a form body with empty remoteip and sitekey, under the API prefix too', async () => {
    const t = await tokenOf('blog');
    const r = await postForm(at('/api/captcha'), { secret: secretOf('blog'), response: t, remoteip: '', sitekey: '' });
    expect(r).toMatchObject({ status: 200, body: { success: true, hostname: 'blog.example', ...shape.extras } });
    expect(await postForm(at(), { secret: secretOf('blog'), response: t, remoteip: '127.0.0.1' })).toEqual(refusal(shape.duplicate));
  });

  it('names a missing secret and a missing response, both when both are missing, before anything else', async () => {
    const t = await tokenOf('shop');
    if (!shape.sharedPath) expect(await postRaw(at(), {})).toEqual(refusal('missing-input-secret', 'missing-input-response'));
    expect(await postForm(at(), { secret: '', response: '' })).toEqual(refusal('missing-input-secret', 'missing-input-response'));
    expect(await postRaw(at(), { response: t })).toEqual(refusal('missing-input-secret'));
    expect(await postRaw(at(), { secret: 'not a secret', response: '' })).toEqual(refusal('missing-input-response'));
    // A backend whose response came out undefined: JSON.stringify drops the field, a form leaves it out.
    expect(await postRaw(at(), { secret: secretOf('shop'), response: undefined })).toEqual(refusal('missing-input-response'));
    expect(await postForm(at(), { secret: secretOf('shop') })).toEqual(refusal('missing-input-response'));
    expect((await postRaw(at(), { secret: secretOf('shop'), response: t })).body.success).toBe(true);
  });

  it('a secret that opens nothing is invalid-input-secret, and the token survives it', async () => {
    const t = await tokenOf('shop');
    expect(await postRaw(at(), { secret: `${secretOf('shop')}!`, response: t })).toEqual(refusal('invalid-input-secret'));
    expect((await postRaw(at(), { secret: secretOf('shop'), response: t })).body.success).toBe(true);
  });

  it("another site's secret, or a sitekey naming another site, cannot redeem the token nor burn it", async () => {
    const t = await tokenOf('shop');
    expect(await postRaw(at(), { secret: secretOf('blog'), response: t })).toEqual(refusal(shape.otherSite));
    expect(await postForm(at(), { secret: secretOf('shop'), response: t, sitekey: 'blog' })).toEqual(refusal(shape.otherSite));
    const r = await postForm(at(), { secret: secretOf('shop'), response: t, sitekey: 'shop' });
    expect(r.body.success).toBe(true);
  });

  it('a forged or foreign token is invalid-input-response', async () => {
    const t = await tokenOf('shop');
    const tampered = `${t.slice(0, -2)}${t.endsWith('AA') ? 'BB' : 'AA'}`;
    expect(await postRaw(at(), { secret: secretOf('shop'), response: tampered })).toEqual(refusal('invalid-input-response'));
    expect(await postRaw(at(), { secret: secretOf('shop'), response: 'P1_eyJ0eXAiOiJKV1QiLCJhbGciOiJIUzI1NiJ9.e30.x' })).toEqual(
      refusal('invalid-input-response'),
    );
  });

  it('a token past its life (60 s) answers the expiry code', async () => {
    const t = await tokenOf('shop');
    server.advance(61_000);
    expect(await postRaw(at(), { secret: secretOf('shop'), response: t })).toEqual(refusal(shape.expired));
  });

  it('a body it cannot read is bad-request with HTTP 200, never a 4xx or 5xx', async () => {
    const t = await tokenOf('shop');
    expect(await postRaw(at(), { secret: secretOf('shop'), response: 5 })).toEqual(refusal('bad-request'));
    expect(await postRaw(at(), { secret: secretOf('shop'), response: t, idempotency_key: 'not a key!' })).toEqual(refusal('bad-request'));
    expect(await postRaw(at(), { secret: secretOf('shop'), response: 'x'.repeat(4097) })).toEqual(refusal('bad-request'));
    expect(await postRaw(at(), { secret: secretOf('shop'), response: t, remoteip: '1'.repeat(65) })).toEqual(refusal('bad-request'));
    if (!shape.sharedPath) {
      // Bodies that cannot say which shape they are in (see the /siteverify tests below).
      expect(await postRaw(at(), '{"secret": ', 'application/json')).toEqual(refusal('bad-request'));
      // The largest body read is MAX_BODY_BYTES; past it the body is refused unread.
      const big = await postRaw(at(), { secret: secretOf('shop'), response: t, pad: 'x'.repeat(server.config.maxBodyBytes) });
      expect(big).toEqual(refusal('bad-request'));
      const justFits = { secret: secretOf('shop'), response: t, pad: '' };
      justFits.pad = 'x'.repeat(server.config.maxBodyBytes - JSON.stringify(justFits).length);
      expect(JSON.stringify(justFits).length).toBe(server.config.maxBodyBytes);
      expect((await postRaw(at(), justFits)).body.success).toBe(true);
      return;
    }
    expect((await postRaw(at(), { secret: secretOf('shop'), response: t })).body.success).toBe(true);
  });

  it('a retry with the same idempotency_key gets the first answer again; another key the duplicate code', async () => {
    const t = await tokenOf('shop');
    const first = await postForm(at(), { secret: secretOf('shop'), response: t, idempotency_key: '5c2d6a0e-7d4b-4f4e-9a43-1f7f8c0f5b1a' });
    expect(first.body.success).toBe(true);
    expect(await postRaw(at(), { secret: secretOf('shop'), response: t, idempotency_key: '5c2d6a0e-7d4b-4f4e-9a43-1f7f8c0f5b1a' })).toEqual(
      first,
    );
    expect(await postRaw(at(), { secret: secretOf('shop'), response: t, idempotency_key: 'another-key' })).toEqual(
      refusal(shape.duplicate),
    );
  });

  it('20 parallel redemptions of one token give exactly one success', async () => {
    const t = await tokenOf('blog');
    const all = await Promise.all(Array.from({ length: 20 }, () => postRaw(at(), { secret: secretOf('blog'), response: t })));
    expect(all.filter((r) => r.body.success === true)).toHaveLength(1);
    expect(all.filter((r) => r.body['error-codes']?.[0] === shape.duplicate)).toHaveLength(19);
  });
});

describe('POST /siteverify: which shape answers', () => {
  it("a body that cannot be read, or too large to be, is answered in Ariadne's shape (nothing tells it is hCaptcha's)", async () => {
    expect(await postRaw(server.at('/siteverify'), '{"response": ')).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    const big = await postRaw(server.at('/siteverify'), { response: 'x', pad: 'x'.repeat(server.config.maxBodyBytes) });
    expect(big).toMatchObject({ status: 413, body: { error: 'payload_too_large' } });
  });

  it("a body with `token` or `session_id` stays Ariadne's, even beside `response`; a secret alone is hCaptcha's; an empty body Ariadne's", async () => {
    const t = await tokenOf('shop');
    const both = await postJson(server.at('/siteverify'), { token: t, response: t, session_id: 'wrong', secret: secretOf('shop') });
    expect(both).toMatchObject({ status: 200, body: { success: false, error: 'session_mismatch' } });
    const noToken = await postJson(server.at('/siteverify'), { secret: secretOf('shop'), session_id: 's' });
    expect(noToken).toMatchObject({ status: 400, body: { success: false, error: 'missing_input' } });
    // What an hCaptcha backend sends when its response is undefined.
    expect(await postRaw(server.at('/siteverify'), { secret: secretOf('shop') })).toEqual(refusal('missing-input-response'));
    // Nothing in an empty body says whose it is: Ariadne's answer (no secret: 401).
    expect(await postJson(server.at('/siteverify'), {})).toMatchObject({ status: 401, body: { success: false, error: 'unauthorized' } });
    const unauthorized = await postJson(server.at('/siteverify'), { token: t, session_id: 's', secret: 'nope' });
    expect(unauthorized.status).toBe(401);
    // The hCaptcha shape redeems the same token without the session.
    expect((await postJson(server.at('/siteverify'), { response: t, secret: secretOf('shop') })).body).toMatchObject({
      success: true,
      credit: false,
    });
  });
});

describe('the action a token carries', () => {
  it("Ariadne's /siteverify answers it too; a token made without one has none", async () => {
    const answer = async (action?: string) => {
      const ch = (await postJson(server.at('/challenge'), { site_key: 'shop' }, { origin: SHOP })).body;
      const submission = buildSubmission(server.kernel, ch, { sessionId: 'session-a' });
      const t = (await postVerify(server, action === undefined ? submission : { ...submission, action }, { origin: SHOP })).body.token;
      return (await postJson(server.at('/siteverify'), { token: t, session_id: 'session-a', secret: secretOf('shop') })).body;
    };
    expect(await answer('login')).toMatchObject({ success: true, action: 'login' });
    expect(await answer()).not.toHaveProperty('action');
  });

  it('/verify refuses an action beyond 100 characters or outside letters, digits, _, / and -', async () => {
    for (const [action, ok] of [
      ['a'.repeat(100), true],
      ['a'.repeat(101), false],
      ['log in', false],
      ['<b>', false],
    ] as const) {
      const ch = (await postJson(server.at('/challenge'), { site_key: 'shop' }, { origin: SHOP })).body;
      const r = await postVerify(server, { ...buildSubmission(server.kernel, ch, { sessionId: 's' }), action }, { origin: SHOP });
      expect([action, r.status, r.body.success === true || r.body.error_code]).toEqual([
        action,
        ok ? 200 : 400,
        ok ? true : 'invalid_request',
      ]);
    }
  });
});

describe('compat shapes without a sites file, with the test secrets', () => {
  const OPERATOR = 'operator-token-0123456789abcdef';
  let open: TestServer;
  beforeAll(async () => {
    open = await startTestServer({ siteverifyAuthToken: OPERATOR });
  });
  afterAll(async () => {
    await open.close();
  });

  it('the operator token is the secret; the sitekey, when given, binds the token to its site', async () => {
    const ch = (await postJson(open.at('/challenge'), { site_key: 'any-site' })).body;
    const t = (await postVerify(open, buildSubmission(open.kernel, ch, { sessionId: 'hidden' }))).body.token;
    expect(await postRaw(open.at('/turnstile/v0/siteverify'), { secret: 'nope', response: t })).toEqual(refusal('invalid-input-secret'));
    expect(await postRaw(open.at('/siteverify'), { secret: OPERATOR, response: t, sitekey: 'other-site' })).toEqual(
      refusal('sitekey-secret-mismatch'),
    );
    expect((await postRaw(open.at('/recaptcha/api/siteverify'), { secret: OPERATOR, response: t, sitekey: 'any-site' })).body.success).toBe(
      true,
    );
  });

  it.each(SHAPES)('$service: test secrets give their fixed verdicts, flagged test', async (shape) => {
    const pass = await postForm(open.at(shape.path), { secret: 'test-secret-always-pass', response: 'XXXX.DUMMY.TOKEN.XXXX' });
    const score = shape.scoreWithoutAction ? { score: 1 } : {};
    expect(pass.body).toEqual({
      success: true,
      challenge_ts: expect.any(String),
      hostname: '',
      'error-codes': [],
      ...shape.extras,
      ...score,
      test: true,
    });
    const used = await postForm(open.at(shape.path), { secret: 'test-secret-already-used', response: 'XXXX.DUMMY.TOKEN.XXXX' });
    expect(used.body).toEqual({ success: false, 'error-codes': [shape.duplicate], score: 0, test: true });
    const fail = await postForm(open.at(shape.path), { secret: 'test-secret-always-fail', response: 'XXXX.DUMMY.TOKEN.XXXX' });
    expect(fail.body).toEqual({ success: false, 'error-codes': ['invalid-input-response'], score: 0, test: true });
  });
});

/** An embedded store that cannot record a redeemed token (challenges still issue and verify). */
class TokenStoreDown extends MemoryStore {
  override async consume(...args: Parameters<MemoryStore['consume']>): Promise<ConsumeResult> {
    if (args[0].startsWith('token:')) throw new StoreUnavailableError('down');
    return super.consume(...args);
  }
}

describe('compat shapes when the store cannot answer', () => {
  it.each(SHAPES)('$service: internal-error with HTTP 200 (fails closed, never a 5xx)', async (shape) => {
    const store = new TokenStoreDown({ maxMarkers: 1_000, maxCounters: 1_000 });
    const down = await startTestServer({}, { store });
    try {
      const ch = (await postJson(down.at('/challenge'), { site_key: 'site-d' })).body;
      const t = (await postVerify(down, buildSubmission(down.kernel, ch))).body.token;
      expect(t).toEqual(expect.any(String));
      expect(await postRaw(down.at(shape.path), { secret: 'any', response: t })).toEqual(refusal('internal-error'));
    } finally {
      await down.close();
      await store.close();
    }
  });
});

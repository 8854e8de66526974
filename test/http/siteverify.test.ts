import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSubmission, postJson, postVerify } from '../helpers/client.js';
import { type TestServer, startTestServer } from '../helpers/server.js';

const AUTH = 'operator-token-0123456789';
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ siteverifyAuthToken: AUTH });
});
afterAll(async () => {
  await server.close();
});

const bearer = { authorization: `Bearer ${AUTH}` };

async function token(sessionId = 'sess-1', origin?: string): Promise<{ token: string; challenge: any }> {
  const ch = (await postJson(server.at('/challenge'), { site_key: 'site-s' })).body;
  const r = await postVerify(server, buildSubmission(server.kernel, ch, { sessionId }), origin ? { origin } : {});
  expect(r.body.success).toBe(true);
  return { token: r.body.token, challenge: ch };
}

describe('POST /siteverify', () => {
  it('redeems a token once, with the decoded claims and the Turnstile-style extras', async () => {
    const { token: t, challenge } = await token('sess-1', 'https://shop.example.com');
    const r = await postJson(server.at('/siteverify'), { token: t, session_id: 'sess-1' }, bearer);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      success: true,
      score: 1,
      challenge_id: challenge.id,
      session_id: 'sess-1',
      site_key: 'site-s',
      hostname: 'shop.example.com',
      'error-codes': [],
    });
    expect(new Date(r.body.challenge_ts).toISOString()).toBe(r.body.challenge_ts);
    const again = await postJson(server.at('/siteverify'), { token: t, session_id: 'sess-1' }, bearer);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ success: false, score: 0, error: 'token_already_used', 'error-codes': ['token_already_used'] });
  });

  it('accepts a form-encoded body, under the prefix too', async () => {
    const { token: t } = await token('sess-f');
    const res = await fetch(server.at('/api/captcha/siteverify'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...bearer },
      body: new URLSearchParams({ token: t, session_id: 'sess-f' }).toString(),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ success: true, session_id: 'sess-f' });
  });

  it.each([
    'Application/X-WWW-Form-Urlencoded',
    'APPLICATION/X-WWW-FORM-URLENCODED; charset=UTF-8',
    ' application/x-www-form-urlencoded ; charset=utf-8',
  ])('reads a form body whatever the case of its media type (%j)', async (contentType) => {
    const { token: t } = await token(`sess-case`);
    const res = await fetch(server.at('/siteverify'), {
      method: 'POST',
      headers: { 'content-type': contentType, ...bearer },
      body: new URLSearchParams({ token: t, session_id: 'sess-case' }).toString(),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ success: true, session_id: 'sess-case' });
  });

  it('session_mismatch and invalid_token do not burn the token', async () => {
    const { token: t } = await token('sess-2');
    const wrong = await postJson(server.at('/siteverify'), { token: t, session_id: 'other' }, bearer);
    expect(wrong.body).toMatchObject({ success: false, error: 'session_mismatch' });
    const tampered = `${t.slice(0, -2)}${t.endsWith('AA') ? 'BB' : 'AA'}`;
    expect((await postJson(server.at('/siteverify'), { token: tampered, session_id: 'sess-2' }, bearer)).body.error).toBe('invalid_token');
    expect((await postJson(server.at('/siteverify'), { token: t, session_id: 'sess-2' }, bearer)).body.success).toBe(true);
  });

  it('missing fields answer 400 missing_input at once', async () => {
    for (const body of [{}, { token: 'x' }, { session_id: 's' }, { token: '', session_id: 's' }]) {
      const r = await postJson(server.at('/siteverify'), body, bearer);
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ success: false, score: 0, error: 'missing_input', 'error-codes': ['missing_input'] });
    }
  });

  it('a malformed body is 400 invalid_request in the siteverify shape', async () => {
    const r = await postJson(server.at('/siteverify'), '{"token": 5', bearer);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ success: false, score: 0, error: 'invalid_request', 'error-codes': ['invalid_request'] });
    const typed = await postJson(server.at('/siteverify'), { token: 5, session_id: 's' }, bearer);
    expect(typed.status).toBe(400);
    expect(typed.body.detail).toMatch(/^token: /);
  });

  it('401 without the bearer token or with a wrong one; the token survives', async () => {
    const { token: t } = await token('sess-3');
    const attempts: Record<string, string>[] = [
      {},
      { authorization: 'Bearer nope' },
      { authorization: AUTH },
      { authorization: `Bearer ${AUTH}x` },
    ];
    for (const headers of attempts) {
      const r = await postJson(server.at('/siteverify'), { token: t, session_id: 'sess-3' }, headers);
      expect(r.status).toBe(401);
      expect(r.headers.get('www-authenticate')).toBe('Bearer');
      expect(r.body).toEqual({ success: false, score: 0, error: 'unauthorized', 'error-codes': ['unauthorized'] });
    }
    expect((await postJson(server.at('/siteverify'), { token: t, session_id: 'sess-3' }, bearer)).body.success).toBe(true);
  });

  it('50 parallel redemptions of one token give exactly one success', async () => {
    const { token: t } = await token('sess-p');
    const all = await Promise.all(
      Array.from({ length: 50 }, () => postJson(server.at('/siteverify'), { token: t, session_id: 'sess-p' }, bearer)),
    );
    expect(all.filter((r) => r.body.success === true)).toHaveLength(1);
    expect(all.filter((r) => r.body.error === 'token_already_used')).toHaveLength(49);
  });
});

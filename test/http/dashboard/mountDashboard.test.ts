import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SESSION_COOKIE } from '../../../src/http/dashboard/dashboardSession.js';
import { buildSubmission, postJson, postVerify } from '../../helpers/client.js';
import { type TestServer, startTestServer, withServer } from '../../helpers/server.js';
import { secretOf } from '../../helpers/sites.js';
import { until } from '../../helpers/until.js';

const TOKEN = 'dashboard-token-0123456789';
const SHOP = 'https://shop.example';
const sitesFile = {
  sites: {
    shop: {
      hostnames: ['shop.example'],
      secret: secretOf('shop'),
      policy: { pow: { difficulty: 6, max_difficulty: 6 }, scoring: { mode: 'shadow' } },
    },
  },
};

let server: TestServer;
// The start of a minute: every request below falls in one minute of the rate limit and of the counts.
const clock = Date.UTC(2030, 0, 1);
beforeAll(async () => {
  server = await startTestServer({ dashboardToken: TOKEN, rateLimitPerMinute: 2 }, { sitesFile, now: () => clock });
});
afterAll(async () => {
  await server.close();
});

const login = (token: string, headers: Record<string, string> = {}) =>
  fetch(server.at('/dashboard/login'), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams({ token }),
    redirect: 'manual',
  });

async function session(): Promise<string> {
  const r = await login(TOKEN);
  expect(r.status).toBe(303);
  return r.headers.get('set-cookie')!.split(';')[0]!;
}

const data = async (cookie: string, query = '') => {
  const r = await fetch(server.at(`/dashboard/data${query}`), { headers: { cookie } });
  return { status: r.status, body: (await r.json()) as any };
};
const total = (series: Record<string, number[]>, name: string) => (series[name] ?? []).reduce((a, b) => a + b, 0);

describe('dashboard: who may see it', () => {
  it('is not served at all without DASHBOARD_TOKEN', async () => {
    await withServer({}, async (plain) => {
      expect((await fetch(plain.at('/dashboard'))).status).toBe(404);
      expect((await fetch(plain.at('/dashboard/data'))).status).toBe(404);
    });
  });

  it('shows the login form, under the strict CSP, until a session is open', async () => {
    const r = await fetch(server.at('/dashboard'));
    expect(r.status).toBe(200);
    expect(r.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(r.headers.get('content-security-policy')).not.toContain('unsafe-inline');
    const page = await r.text();
    expect(page).toContain('action="/dashboard/login"');
    expect(page).toContain('<p id="denied" hidden>');
  });

  it('refuses a wrong token with the form again (401), and opens no session', async () => {
    const r = await login(`${TOKEN}x`);
    expect(r.status).toBe(401);
    expect(r.headers.get('set-cookie')).toBeNull();
    expect(await r.text()).toContain('<p id="denied">');
  });

  it('opens a session with the token: an HttpOnly, SameSite=Strict cookie on /dashboard that is not the token', async () => {
    const r = await login(TOKEN);
    expect(r.status).toBe(303);
    expect(r.headers.get('location')).toBe('/dashboard');
    const cookie = r.headers.get('set-cookie')!;
    expect(cookie).toMatch(new RegExp(`^${SESSION_COOKIE}=\\d+\\.[\\w-]{43}; `));
    expect(cookie).toContain('; Path=/dashboard;');
    expect(cookie).toContain('; HttpOnly');
    expect(cookie).toContain('; SameSite=Strict');
    expect(cookie).not.toContain('Secure');
    expect(cookie).not.toContain(TOKEN);
    const page = await (await fetch(server.at('/dashboard'), { headers: { cookie: cookie.split(';')[0]! } })).text();
    expect(page).toContain('src="/dashboard/dashboard.js"');
  });

  it('marks the cookie Secure behind a trusted proxy that says https', async () => {
    await withServer({ dashboardToken: TOKEN, trustProxy: 1 }, async (proxied) => {
      const r = await fetch(proxied.at('/dashboard/login'), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-proto': 'https', 'x-forwarded-for': '203.0.113.9' },
        body: new URLSearchParams({ token: TOKEN }),
        redirect: 'manual',
      });
      expect(r.headers.get('set-cookie')).toContain('; Secure');
    });
  });

  it('refuses the data routes without a live session: 401 unauthorized (JSON)', async () => {
    const good = await session();
    const [, mac] = good.split('.');
    const later = `${SESSION_COOKIE}=${clock + 365 * 86_400_000}.${mac}`;
    for (const cookie of ['', `${SESSION_COOKIE}=${TOKEN}`, later, `${SESSION_COOKIE}=1.${mac}`]) {
      for (const path of ['/dashboard/data', '/dashboard/traces.jsonl', '/dashboard/drift', '/dashboard/keyboard']) {
        const r = await fetch(server.at(path), { headers: { cookie } });
        expect(r.status).toBe(401);
        expect(await r.json()).toEqual({ success: false, error_code: 'unauthorized', detail: 'log in at /dashboard first' });
      }
    }
    expect((await data(good)).status).toBe(200);
  });

  it('refuses a window it does not know and an overlong site (400)', async () => {
    const cookie = await session();
    expect(await data(cookie, '?window=week')).toMatchObject({ status: 400, body: { error_code: 'invalid_request' } });
    expect(await data(cookie, `?site=${'s'.repeat(257)}`)).toMatchObject({ status: 400, body: { error_code: 'invalid_request' } });
  });
});

describe('dashboard: the counts of a known sequence of requests', () => {
  it('counts challenges, /verify outcomes, scores, input types, rate limits, redemptions and latencies per site', async () => {
    const cookie = await session();
    const challenge = (siteKey: string) => postJson(server.at('/challenge'), { site_key: siteKey }, { origin: SHOP });
    const chs = [(await challenge('shop')).body, (await challenge('shop')).body, (await challenge('shop')).body];
    expect((await challenge('nope')).body.error_code).toBe('unknown_site_key');
    const ok = await postVerify(server, buildSubmission(server.kernel, chs[0], { sessionId: 's1' }), { origin: SHOP });
    expect(ok.body.success).toBe(true);
    const unknown = await postVerify(server, { ...buildSubmission(server.kernel, chs[1]), site_key: 'nope' }, { origin: SHOP });
    expect(unknown.body.error_code).toBe('unknown_site_key');
    // RATE_LIMIT_PER_MINUTE=2: the third /verify of this address in the minute is refused.
    const limited = await postVerify(server, buildSubmission(server.kernel, chs[2]), { origin: SHOP });
    expect(limited.status).toBe(429);
    // Refused again: two limited requests, one limited client.
    expect((await postVerify(server, buildSubmission(server.kernel, chs[2]), { origin: SHOP })).status).toBe(429);
    // Refused before core: a body that is not JSON (filed under no site), and one that fails the schema naming the site.
    const notJson = await fetch(server.at('/verify'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: SHOP },
      body: '{"site_key":',
    });
    expect(notJson.status).toBe(400);
    const badShape = await postVerify(server, { ...buildSubmission(server.kernel, chs[1]), events: 'none' }, { origin: SHOP });
    expect(badShape.body.error_code).toBe('invalid_request');
    const redeem = () =>
      postJson(server.at('/siteverify'), { token: ok.body.token, session_id: 's1' }, { authorization: `Bearer ${secretOf('shop')}` });
    expect((await redeem()).body.success).toBe(true);
    expect((await redeem()).body.error).toBe('token_already_used');

    // Counts reach the store within a flush (once a second per thread, each thread on its own).
    const fixed = {
      challenge: 3,
      'pow:6': 3,
      'verify:ok': 1,
      'verify:invalid_request': 1,
      'input:mouse': 1,
      'limited:verify': 2,
      'limited_clients:verify': 1,
      'siteverify:ok': 1,
      'siteverify:token_already_used': 1,
    };
    let shop: any;
    await until(async () => {
      shop = (await data(cookie, '?site=shop')).body;
      const scored = Object.keys(shop.series).filter((k) => k.startsWith('score:shadow:'));
      return Object.entries(fixed).every(([k, n]) => total(shop.series, k) === n) && scored.length === 1;
    }).catch(() => undefined);
    const { series } = shop;
    expect(Object.fromEntries(Object.keys(series).map((k) => [k, total(series, k)]))).toEqual({
      challenge: 3,
      'pow:6': 3,
      'verify:ok': 1,
      'verify:invalid_request': 1,
      'input:mouse': 1,
      [Object.keys(series).find((k) => k.startsWith('score:shadow:'))!]: 1,
      ...Object.fromEntries(
        Object.keys(series)
          .filter((k) => k.startsWith('reason:'))
          .map((k) => [k, 1]),
      ),
      'limited:verify': 2,
      'limited_clients:verify': 1,
      'siteverify:ok': 1,
      'siteverify:token_already_used': 1,
    });
    expect(shop.times).toHaveLength(60);
    expect(shop.sites).toEqual(['', 'shop']);

    let all: any;
    await until(async () => {
      all = (await data(cookie)).body;
      return total(all.series, 'verify:unknown_site_key') === 1 && total(all.series, 'verify:invalid_request') === 2;
    }).catch(() => undefined);
    expect(total(all.series, 'verify:unknown_site_key')).toBe(1);
    expect(total(all.series, 'verify:invalid_request')).toBe(2);
    expect(total(all.series, 'verify:ok')).toBe(1);
    for (const route of ['/challenge', '/verify', '/siteverify']) {
      const p50 = all.latency[route].p50.filter((v: number | null) => v !== null);
      const p99 = all.latency[route].p99.filter((v: number | null) => v !== null);
      expect(p50.length).toBeGreaterThan(0);
      expect(p99[0]).toBeGreaterThanOrEqual(p50[0]);
    }
    const day = (await data(cookie, '?window=day')).body;
    expect(day.times).toHaveLength(96);
    expect(total(day.series, 'challenge')).toBe(3);
  });

  it("shows each site's keyboard door once the site has been served: people first, its rates, baseline and surge levels", async () => {
    const cookie = await session();
    // The site served by the test above.
    const r = await fetch(server.at('/dashboard/keyboard'), { headers: { cookie } });
    expect(r.status).toBe(200);
    const { doors } = (await r.json()) as { doors: unknown[] };
    expect(doors).toEqual([
      {
        site: 'shop',
        door: 'people_first',
        mode: 'auto',
        since: expect.any(Number),
        rate: 0,
        share: 0,
        base: { rate: 2, share: 0.05 },
        level: { rate: 6, share: expect.closeTo(0.15, 9) },
      },
    ]);
  });
});

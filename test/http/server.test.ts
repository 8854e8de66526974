import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { MemoryStore } from '../../src/store/MemoryStore.js';
import { StoreUnavailableError } from '../../src/store/Store.js';
import type { CredentialStore } from '../../src/store/credentials/CredentialStore.js';
import { freePort } from '../helpers/freePort.js';
import { storeWith } from '../helpers/storeWith.js';
import { buildSubmission, postJson, postVerify } from '../helpers/client.js';
import { metricSum } from '../helpers/metricSum.js';
import { startTestServer, withServer } from '../helpers/server.js';
import { clockFromHourStart } from '../helpers/clockWindows.js';

const secret = () => randomBytes(32).toString('base64url');

describe('GET /healthz, /readyz and /metrics', () => {
  it('healthz and readyz answer 200 JSON with the store state, at the root and under the prefix', async () => {
    await withServer({}, async (s) => {
      for (const path of ['/healthz', '/api/captcha/healthz']) {
        const r = await fetch(s.at(path));
        expect(r.status).toBe(200);
        expect(r.headers.get('content-type')).toBe('application/json');
        expect(await r.json()).toEqual({ status: 'ok', store: { ok: true } });
      }
      for (const path of ['/readyz', '/api/captcha/readyz']) {
        const r = await fetch(s.at(path));
        expect(r.status).toBe(200);
        expect(await r.json()).toEqual({ status: 'ready' });
      }
    });
  });

  it('a store that cannot answer: healthz says degraded (200), readyz is 503 store_unavailable', async () => {
    await withServer({}, { store: storeWith({ health: async () => ({ ok: false, detail: 'redis: connection refused' }) }) }, async (s) => {
      const h = await fetch(s.at('/healthz'));
      expect(h.status).toBe(200);
      expect(await h.json()).toEqual({ status: 'degraded', store: { ok: false, detail: 'redis: connection refused' } });
      const r = await fetch(s.at('/readyz'));
      expect(r.status).toBe(503);
      expect(await r.json()).toEqual({ success: false, error_code: 'store_unavailable', detail: 'redis: connection refused' });
    });
  });

  it('passkey credentials that cannot answer: readyz is 503 naming them, healthz says degraded', async () => {
    const down = () => Promise.reject(new StoreUnavailableError('redis: reconnecting'));
    const credentials: CredentialStore = {
      add: down,
      listFor: down,
      get: down,
      advanceCounter: down,
      close: async () => {},
      health: async () => ({ ok: false, detail: 'redis: reconnecting' }),
    };
    const config = { mode: 'preferred' as const, rpId: 'example.com', origins: ['https://shop.example.com'], rpName: 'Ariadne' };
    await withServer({ webauthn: config }, { passkeys: { config, credentials } }, async (s) => {
      const r = await fetch(s.at('/readyz'));
      expect(r.status).toBe(503);
      expect(await r.json()).toMatchObject({ error_code: 'store_unavailable', detail: 'passkey credentials: redis: reconnecting' });
      expect(await (await fetch(s.at('/healthz'))).json()).toMatchObject({ status: 'degraded', store: { ok: false } });
    });
  });

  it('metrics count requests by route and status and failures by code', async () => {
    await withServer({}, async (s) => {
      await postJson(s.at('/challenge'), { site_key: 's' });
      await postVerify(s, { nope: 1 });
      const r = await fetch(s.at('/metrics'));
      expect(r.status).toBe(200);
      expect(r.headers.get('content-type')).toMatch(/^text\/plain/);
      const text = await r.text();
      expect(metricSum(text, 'ariadne_http_requests_total', { route: '/challenge', status: '200' })).toBe(1);
      expect(metricSum(text, 'ariadne_failures_total', { route: '/verify', code: 'invalid_request' })).toBe(1);
      expect(text).toContain('ariadne_http_request_duration_seconds_bucket');
      expect(text).toContain('ariadne_process_resident_memory_bytes');
    });
  });

  it.runIf(process.env.ARIADNE_TEST_WORKERS === '2')(
    "with two serving threads (the workers project), both answer a test's requests and /metrics counts both",
    async () => {
      await withServer({}, async (s) => {
        for (let i = 0; i < 20; i++) expect((await postJson(s.at('/challenge'), { site_key: 's' })).status).toBe(200);
        const text = await (await fetch(s.at('/metrics'))).text();
        const byThread = ['1', '2'].map((thread) =>
          metricSum(text, 'ariadne_http_requests_total', { route: '/challenge', status: '200', thread }),
        );
        expect(byThread[0]! + byThread[1]!).toBe(20);
        expect(Math.min(byThread[0]!, byThread[1]!)).toBeGreaterThan(0);
      });
    },
  );

  it('metrics require the operator bearer token when SITEVERIFY_AUTH_TOKEN is set', async () => {
    const token = 'operator-token-0123456789';
    await withServer({ siteverifyAuthToken: token }, async (s) => {
      const anonymous = await fetch(s.at('/metrics'));
      expect(anonymous.status).toBe(401);
      expect(anonymous.headers.get('www-authenticate')).toBe('Bearer');
      expect((await anonymous.json()).error_code).toBe('unauthorized');
      expect((await fetch(s.at('/metrics'), { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
      const operator = await fetch(s.at('/metrics'), { headers: { authorization: `Bearer ${token}` } });
      expect(operator.status).toBe(200);
      expect(await operator.text()).toContain('ariadne_http_requests_total');
    });
  });

  it('API_PREFIX empty serves the root only', async () => {
    await withServer({ apiPrefix: '' }, async (s) => {
      expect((await fetch(s.at('/healthz'))).status).toBe(200);
      expect((await fetch(s.at('/api/captcha/healthz'))).status).toBe(404);
    });
  });
});

describe('CORS', () => {
  it('CORS_ORIGINS=* allows any origin, and preflights answer 204', async () => {
    await withServer({}, async (s) => {
      const r = await fetch(s.at('/challenge'), { method: 'POST', headers: { origin: 'https://a.example' }, body: '{"site_key":"s"}' });
      expect(r.headers.get('access-control-allow-origin')).toBe('*');
      const pre = await fetch(s.at('/api/captcha/verify'), {
        method: 'OPTIONS',
        headers: { origin: 'https://a.example', 'access-control-request-method': 'POST' },
      });
      expect(pre.status).toBe(204);
      expect(pre.headers.get('access-control-allow-methods')).toContain('POST');
      expect(pre.headers.get('access-control-allow-headers')).toContain('content-type');
      expect((await fetch(s.at('/nope'), { method: 'OPTIONS' })).status).toBe(404);
    });
  });

  it('a list allows only its origins', async () => {
    await withServer({ corsOrigins: ['https://good.example'] }, async (s) => {
      const good = await fetch(s.at('/challenge'), {
        method: 'POST',
        headers: { origin: 'https://good.example' },
        body: '{"site_key":"s"}',
      });
      expect(good.headers.get('access-control-allow-origin')).toBe('https://good.example');
      expect(good.headers.get('vary')).toBe('origin');
      const bad = await fetch(s.at('/challenge'), {
        method: 'POST',
        headers: { origin: 'https://evil.example' },
        body: '{"site_key":"s"}',
      });
      expect(bad.headers.get('access-control-allow-origin')).toBeNull();
    });
  });
});

describe('rate limits', () => {
  it('/verify allows RATE_LIMIT_PER_MINUTE per binding, then 429 rate_limited with Retry-After', async () => {
    await withServer({ rateLimitPerMinute: 3 }, { now: clockFromHourStart() }, async (s) => {
      const statuses: number[] = [];
      for (let i = 0; i < 4; i++) statuses.push((await postVerify(s, { nope: 1 })).status);
      // Bodies failing the schema are refused before the limit is counted.
      expect(statuses).toEqual([400, 400, 400, 400]);
      const ch = (await postJson(s.at('/challenge'), { site_key: 's' })).body;
      const body = buildSubmission(s.kernel, ch);
      // Posted at once: the limit (one fixed minute of the server's clock) is counted before any
      // time check, and advancing the clock by each trace's span could cross into the next minute.
      for (let i = 0; i < 3; i++) expect((await postJson(s.at('/verify'), { ...body, challenge_id: 'x' })).status).toBe(400);
      const limited = await postJson(s.at('/verify'), body);
      expect(limited.status).toBe(429);
      expect(limited.body).toEqual({ success: false, score: 0, error_code: 'rate_limited' });
      const retry = Number(limited.headers.get('retry-after'));
      expect(retry >= 1 && retry <= 60).toBe(true);
    });
  });

  it('/challenge and /probe/* get ten times the /verify limit', async () => {
    await withServer({ rateLimitPerMinute: 2 }, { now: clockFromHourStart() }, async (s) => {
      const statuses: number[] = [];
      for (let i = 0; i < 21; i++) statuses.push((await postJson(s.at('/challenge'), { site_key: 's' })).status);
      expect(statuses.slice(0, 20).every((x) => x === 200)).toBe(true);
      expect(statuses[20]).toBe(429);
      const probe = await postJson(s.at('/probe/complete'), {
        challenge_id: 'c',
        session_id: 's',
        probe_ticket: 't',
        tapped_cell: { x: 0, y: 0 },
      });
      expect(probe.body.error_code).toBe('invalid_ticket');
    });
  });

  it('the binding is the peer address; X-Forwarded-For counts only with TRUST_PROXY, right-most hop', async () => {
    // Each server's clock starts at the top of a minute: no window turns mid-test.
    await withServer({ rateLimitPerMinute: 1 }, { now: clockFromHourStart() }, async (plain) => {
      // Without TRUST_PROXY a client cannot escape its limit by inventing addresses.
      const a = await postVerify(plain, { ...validShape(), challenge_id: 'x' }, { 'x-forwarded-for': '10.0.0.1' });
      const b = await postVerify(plain, { ...validShape(), challenge_id: 'x' }, { 'x-forwarded-for': '10.0.0.2' });
      expect([a.status, b.status]).toEqual([400, 429]);
    });
    await withServer({ rateLimitPerMinute: 1, trustProxy: 1 }, { now: clockFromHourStart() }, async (proxied) => {
      const send = (xff: string) => postVerify(proxied, { ...validShape(), challenge_id: 'x' }, { 'x-forwarded-for': xff });
      expect((await send('10.0.0.1')).status).toBe(400);
      expect((await send('10.0.0.2')).status).toBe(400);
      expect((await send('10.0.0.1')).status).toBe(429);
      // The client wrote the left entry; the proxy appended the right one.
      expect((await send('10.0.0.9, 10.0.0.1')).status).toBe(429);
    });
    // rate_limit_binding in the body is ignored.
    await withServer({ rateLimitPerMinute: 1 }, { now: clockFromHourStart() }, async (s) => {
      expect((await postVerify(s, { ...validShape(), rate_limit_binding: 'a' })).status).toBe(400);
      expect((await postVerify(s, { ...validShape(), rate_limit_binding: 'b' })).status).toBe(429);
    });
  });
});

function validShape(): Record<string, unknown> {
  return {
    challenge_id: 'x',
    site_key: 's',
    session_id: 's',
    events: [],
    pow_proof: { nonce: 0, hash: '' },
    public_key: 'k',
    signature: 's',
    timestamp: 0,
  };
}

describe('key rotation', () => {
  it('challenges and tokens from the old key verify once it is listed in SIGNING_KEYS, not once removed', async () => {
    const oldSecret = secret();
    const newSecret = secret();
    const store = new MemoryStore({ maxMarkers: 1000, maxCounters: 1000 });
    const before = await startTestServer({ signingSecret: oldSecret }, { store });
    const ch1 = (await postJson(before.at('/challenge'), { site_key: 's' })).body;
    const ch2 = (await postJson(before.at('/challenge'), { site_key: 's' })).body;
    const ch3 = (await postJson(before.at('/challenge'), { site_key: 's' })).body;
    const t = (await postVerify(before, buildSubmission(before.kernel, ch1, { sessionId: 'x' }))).body.token;
    await before.close();

    // The same store across the restart: what a restarted store refuses is tested in verifyToken.
    await withServer({ signingSecret: newSecret, signingKeys: [{ kid: 'old', value: oldSecret }] }, { store }, async (rotated) => {
      expect((await postVerify(rotated, buildSubmission(rotated.kernel, ch2))).body.success).toBe(true);
      expect((await postJson(rotated.at('/siteverify'), { token: t, session_id: 'x' })).body.success).toBe(true);
    });
    const removed = await startTestServer({ signingSecret: newSecret }, { store });
    try {
      expect((await postVerify(removed, buildSubmission(removed.kernel, ch3))).body.error_code).toBe('challenge_not_found');
    } finally {
      await removed.close();
      await store.close();
    }
  });
});

describe('fail closed', () => {
  it('a store full of live markers refuses /verify with 503 store_unavailable', async () => {
    const store = new MemoryStore({ maxMarkers: 1, maxCounters: 100 });
    await withServer({}, { store }, async (s) => {
      const a = (await postJson(s.at('/challenge'), { site_key: 's' })).body;
      const b = (await postJson(s.at('/challenge'), { site_key: 's' })).body;
      expect((await postVerify(s, buildSubmission(s.kernel, a))).status).toBe(200);
      const r = await postVerify(s, buildSubmission(s.kernel, b));
      expect(r.status).toBe(503);
      expect(r.body).toEqual({ success: false, score: 0, error_code: 'store_unavailable' });
    });
  });
});

describe('listening', () => {
  it('refuses a port another server holds instead of sharing it', async () => {
    await withServer({}, async (first) => {
      await expect(startTestServer({ port: first.port })).rejects.toThrow(`127.0.0.1:${first.port}`);
      expect((await fetch(first.at('/healthz'))).status).toBe(200);
    });
  });

  it('shares the port with another server only when SHARE_PORT is set on both', async () => {
    const shared = (s: Awaited<ReturnType<typeof startTestServer>>['config']['store']) => ({ ...s, sharePort: true });
    const first = await startTestServer();
    const sharing = { store: shared(first.config.store) };
    // uWebSockets.js does not share a port it picked itself (port 0): name one.
    const a = await startTestServer({ ...sharing, port: await freePort() });
    try {
      const b = await startTestServer({ ...sharing, port: a.port });
      expect(b.port).toBe(a.port);
      await b.close();
      // A server that did not ask to share cannot join either.
      await expect(startTestServer({ port: first.port, ...sharing })).rejects.toThrow(`127.0.0.1:${first.port}`);
    } finally {
      await a.close();
      await first.close();
    }
  });
});

describe('store unavailable', () => {
  it('answers 503 store_unavailable, never 500, while the store cannot answer', async () => {
    const down = storeWith({
      consume: async () => {
        throw new StoreUnavailableError('down');
      },
    });
    await withServer({}, { store: down }, async (s) => {
      const r = await postJson(s.at('/siteverify'), { token: 'x.y.z', session_id: 's' });
      expect(r.status).toBe(200); // a malformed token never reaches the store
      const ch = (await postJson(s.at('/challenge'), { site_key: 's' })).body;
      expect(ch.id).toBeTypeOf('string'); // issuing writes nothing: it works without the store
      const v = await postVerify(s, buildSubmission(s.kernel, ch));
      expect(v.status).toBe(503);
      expect(v.body).toMatchObject({ success: false, error_code: 'store_unavailable' });
    });
  });

  it('with rate limits on: /challenge still issues (unlimited meanwhile), /verify and /probe/arm answer 503', async () => {
    const fail = async (): Promise<never> => {
      throw new StoreUnavailableError('down');
    };
    await withServer(
      { rateLimitPerMinute: 1, probeProbability: 1 },
      { store: storeWith({ consume: fail, increment: fail }) },
      async (s) => {
        for (let i = 0; i < 15; i++) expect((await postJson(s.at('/challenge'), { site_key: 's' })).status).toBe(200);
        const ch = (await postJson(s.at('/challenge'), { site_key: 's' })).body;
        const v = await postJson(s.at('/verify'), buildSubmission(s.kernel, ch));
        expect(v.status).toBe(503);
        expect(v.body).toMatchObject({ error_code: 'store_unavailable' });
        const arm = await postJson(s.at('/probe/arm'), { challenge_id: ch.id, site_key: 's', session_id: 'x', probe_id: 'p', events: [] });
        expect(arm.status).toBe(503);
      },
    );
  });
});

describe('session token expiry (injected clock)', () => {
  it('siteverify answers token_expired after 60 s', async () => {
    let clock = Date.UTC(2030, 0, 1);
    await withServer({}, { now: () => clock }, async (s) => {
      const ch = (await postJson(s.at('/challenge'), { site_key: 's' })).body;
      const t = (await postVerify(s, buildSubmission(s.kernel, ch, { sessionId: 'x' }))).body.token;
      clock += 60_000;
      const r = await postJson(s.at('/siteverify'), { token: t, session_id: 'x' });
      expect(r.body).toMatchObject({ success: false, error: 'token_expired' });
    });
  });
});

describe('graceful close', () => {
  it('finishes an in-flight request, then refuses new connections', async () => {
    const s = await startTestServer();
    const body = JSON.stringify({ site_key: 'late' });
    const response = new Promise<string>((resolve) => {
      let got = '';
      const socket = connect(s.port, '127.0.0.1', () => {
        socket.write(`POST /challenge HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 4)}`);
        setTimeout(() => socket.write(body.slice(4)), 300);
      });
      socket.on('data', (d) => (got += d.toString()));
      socket.on('close', () => resolve(got));
      socket.on('error', () => resolve(got));
    });
    await new Promise((r) => setTimeout(r, 100));
    const closed = s.close();
    expect(await response).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*"site_key":"late"/);
    await closed;
    await expect(fetch(s.at('/healthz'))).rejects.toThrow();
  });
});

describe('passkey registration routes', () => {
  it('are plumbed: schema-checked, and 404 not_found while passkeys are off', async () => {
    await withServer({}, async (s) => {
      const bad = await postJson(s.at('/webauthn/register/options'), { site_key: 's' });
      expect(bad.status).toBe(400);
      expect(bad.body.detail).toMatch(/^stable_id: /);
      const off = await postJson(s.at('/api/captcha/webauthn/register/options'), { site_key: 's', stable_id: 'u' });
      expect(off.status).toBe(404);
      expect(off.body).toEqual({ success: false, error_code: 'not_found', detail: 'passkeys are off' });
      const verify = await postJson(s.at('/webauthn/register/verify'), { session_id: 'x', response: {} });
      expect(verify.status).toBe(404);
    });
  });
});

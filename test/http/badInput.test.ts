import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../src/http/parseJson.js';
import { LIMITS } from '../../src/http/schemas.js';
import { buildSubmission, canvasPoint, newSigner, postJson, postVerify, solution, traceEvents } from '../helpers/client.js';
import { DRAIN_BYTES, DRAIN_MS } from '../../src/http/readBody.js';
import { type RawChunk, exchange, firstResponse, hasFirstResponse } from '../helpers/rawHttp.js';
import { type TestServer, startTestServer } from '../helpers/server.js';

let server: TestServer;
const MAX_EVENTS = 400;
beforeAll(async () => {
  server = await startTestServer({ maxEvents: MAX_EVENTS });
});
afterAll(async () => {
  await server.close();
});

const raw = (chunks: RawChunk[], waitMs = 2000) => firstResponse(server.port, chunks, waitMs);

async function healthy(): Promise<void> {
  const r = await fetch(server.at('/healthz'));
  expect(r.status).toBe(200);
  expect(await r.json()).toMatchObject({ status: 'ok' });
}

async function challenge() {
  return (await postJson(server.at('/challenge'), { site_key: 'site-b' })).body as any;
}

describe('body size cap (MAX_BODY_BYTES)', () => {
  const padded = (size: number) => {
    const json = '{"site_key":"s"}';
    return json + ' '.repeat(size - json.length);
  };

  it('accepts a body of exactly MAX_BODY_BYTES', async () => {
    const body = padded(server.config.maxBodyBytes);
    expect(Buffer.byteLength(body)).toBe(262_144);
    const r = await postJson(server.at('/challenge'), body);
    expect(r.status).toBe(200);
  });

  it('refuses MAX_BODY_BYTES + 1 with 413 payload_too_large, and keeps serving', async () => {
    const r = await postJson(server.at('/challenge'), padded(server.config.maxBodyBytes + 1));
    expect(r.status).toBe(413);
    expect(r.body).toEqual({ success: false, error_code: 'payload_too_large', detail: 'body: larger than 262144 bytes' });
    await healthy();
  });

  it('refuses an over-long body sent without Content-Length (chunked), and keeps serving', async () => {
    const chunk = 'a'.repeat(100_000);
    const piece = `${chunk.length.toString(16)}\r\n${chunk}\r\n`;
    const res = await raw(
      ['POST /challenge HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n', piece, piece, piece, '0\r\n\r\n'],
      3000,
    );
    expect(res).toMatch(/^HTTP\/1\.1 413 /);
    await healthy();
  });
});

describe('early answers reach a client still uploading', () => {
  const overLimit = () => server.config.maxBodyBytes + DRAIN_BYTES / 2;

  it('413 is read by a client that streams an over-limit body at once (20 of 20 tries)', async () => {
    const body = Buffer.alloc(overLimit(), 0x20);
    for (let i = 0; i < 20; i++) {
      const head = `POST /challenge HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
      const r = await exchange(server.port, [head, body], 5000, hasFirstResponse);
      // The whole upload went through (no EPIPE, no reset), then the status was read.
      expect(r.writeError).toBeUndefined();
      expect(r.text).toMatch(/^HTTP\/1\.1 413 /);
      expect(r.text).toContain('"error_code":"payload_too_large"');
    }
    await healthy();
  });

  it('413 is read by a client streaming an over-limit chunked body at once (20 of 20 tries)', async () => {
    const chunk = 'a'.repeat(64 * 1024);
    const piece = `${chunk.length.toString(16)}\r\n${chunk}\r\n`;
    const pieces = Array.from({ length: Math.ceil(overLimit() / chunk.length) }, () => piece);
    for (let i = 0; i < 20; i++) {
      const r = await exchange(
        server.port,
        ['POST /challenge HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n' + pieces.join('') + '0\r\n\r\n'],
        5000,
        hasFirstResponse,
      );
      expect(r.writeError).toBeUndefined();
      expect(r.text).toMatch(/^HTTP\/1\.1 413 /);
    }
  });

  it('a 404 and a 405 are read by a client uploading a large body', async () => {
    const body = Buffer.alloc(500_000, 0x20);
    for (const [path, status] of [
      ['/nowhere', 404],
      ['/healthz', 405],
    ] as const) {
      const r = await exchange(
        server.port,
        [`POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\n\r\n`, body],
        5000,
        hasFirstResponse,
      );
      expect(r.writeError).toBeUndefined();
      expect(r.text).toMatch(new RegExp(`^HTTP/1\\.1 ${status} `));
    }
  });

  it(`a body of exactly MAX_BODY_BYTES + ${DRAIN_BYTES} bytes is still read through before the 413`, async () => {
    const size = server.config.maxBodyBytes + DRAIN_BYTES;
    const r = await exchange(
      server.port,
      [`POST /challenge HTTP/1.1\r\nHost: x\r\nContent-Length: ${size}\r\n\r\n`, Buffer.alloc(size, 0x20)],
      5000,
      hasFirstResponse,
    );
    expect(r.writeError).toBeUndefined();
    expect(r.text).toMatch(/^HTTP\/1\.1 413 /);
  });

  it(`a declared length beyond MAX_BODY_BYTES + ${DRAIN_BYTES} bytes is answered 413 at once, without waiting for the body`, async () => {
    const declared = server.config.maxBodyBytes + DRAIN_BYTES + 1;
    // Well within DRAIN_MS: the answer does not wait for the linger.
    const r = await exchange(
      server.port,
      [`POST /challenge HTTP/1.1\r\nHost: x\r\nContent-Length: ${declared}\r\n\r\n`],
      DRAIN_MS / 2,
      hasFirstResponse,
    );
    expect(r.text).toMatch(/^HTTP\/1\.1 413 /);
  });

  it(`an over-limit upload that stalls is answered 413 after ${DRAIN_MS} ms and closed`, async () => {
    const head = `POST /challenge HTTP/1.1\r\nHost: x\r\nContent-Length: ${overLimit()}\r\n\r\n`;
    const r = await exchange(server.port, [head, Buffer.alloc(server.config.maxBodyBytes + 1, 0x20)], DRAIN_MS + 3000);
    expect(r.text).toMatch(/^HTTP\/1\.1 413 /);
    expect(r.closed).toBe(true);
  });
});

describe('events cap (MAX_EVENTS)', () => {
  function padTo(ch: any, n: number) {
    const events = traceEvents(ch, solution(server.kernel, ch));
    const last = events[events.length - 1]!;
    while (events.length < n) events.splice(events.length - 1, 0, { ...canvasPoint(ch, 0.5, 0.5), t: last.t, type: 'other' });
    return events;
  }

  it('accepts exactly MAX_EVENTS events', async () => {
    const ch = await challenge();
    const events = padTo(ch, MAX_EVENTS);
    expect(events).toHaveLength(MAX_EVENTS);
    const r = await postVerify(server, buildSubmission(server.kernel, ch, { events }));
    expect(r.body).toMatchObject({ success: true });
  });

  it('refuses MAX_EVENTS + 1 with invalid_request naming events, before touching the challenge', async () => {
    const ch = await challenge();
    const r = await postVerify(server, buildSubmission(server.kernel, ch, { events: padTo(ch, MAX_EVENTS + 1) }));
    expect(r.status).toBe(400);
    expect(r.body.error_code).toBe('invalid_request');
    expect(r.body.detail).toMatch(/^events: /);
    // The refused request did not consume the challenge.
    expect((await postVerify(server, buildSubmission(server.kernel, ch))).body.success).toBe(true);
  });
});

describe('string and array caps', () => {
  it.each([
    ['site_key', LIMITS.siteKey],
    ['stable_id', LIMITS.stableId],
  ])('/challenge %s: %i characters pass, one more is invalid_request', async (field, max) => {
    const ok = await postJson(server.at('/challenge'), { site_key: 's', [field]: 'k'.repeat(max) });
    expect(ok.status).toBe(200);
    const over = await postJson(server.at('/challenge'), { site_key: 's', [field]: 'k'.repeat(max + 1) });
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({ error_code: 'invalid_request' });
    expect(over.body.detail).toMatch(new RegExp(`^${field}: `));
  });

  it.each([
    ['session_id', LIMITS.sessionId],
    ['public_key', LIMITS.publicKey],
    ['signature', LIMITS.signature],
    ['challenge_id', LIMITS.challengeId],
  ])('/verify %s over %i characters is invalid_request naming it', async (field, max) => {
    const ch = await challenge();
    const r = await postVerify(server, { ...buildSubmission(server.kernel, ch), [field]: 'k'.repeat(max + 1) });
    expect(r.status).toBe(400);
    expect(r.body.detail).toMatch(new RegExp(`^${field}: `));
  });

  it('/verify session_id of exactly its cap is accepted', async () => {
    const ch = await challenge();
    const r = await postVerify(server, buildSubmission(server.kernel, ch, { sessionId: 's'.repeat(LIMITS.sessionId) }));
    expect(r.body.success).toBe(true);
  });

  it('probe_completion_tokens: more than the cap is invalid_request', async () => {
    const ch = await challenge();
    const body = buildSubmission(server.kernel, ch, { probeCompletionTokens: Array(LIMITS.completionTokens + 1).fill('t') });
    const r = await postVerify(server, body);
    expect(r.body.detail).toMatch(/^probe_completion_tokens: /);
  });
});

describe('JSON depth', () => {
  const nested = (depth: number) => `{"site_key":"s","x":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;

  it(`accepts nesting of exactly ${MAX_JSON_DEPTH}`, async () => {
    expect((await postJson(server.at('/challenge'), nested(MAX_JSON_DEPTH))).status).toBe(200);
  });

  it('refuses one level more; brackets inside strings do not count', async () => {
    const r = await postJson(server.at('/challenge'), nested(MAX_JSON_DEPTH + 1));
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ success: false, error_code: 'invalid_request', detail: `body: JSON nested deeper than ${MAX_JSON_DEPTH}` });
    const inString = await postJson(server.at('/challenge'), { site_key: 's', x: '[[[[[[[[[[[[[[[[[[[[[[["\\' });
    expect(inString.status).toBe(200);
  });

  it('a very deep body (100k levels) is refused without harm', async () => {
    const r = await postJson(server.at('/challenge'), '['.repeat(100_000) + ']'.repeat(100_000));
    expect(r.status).toBe(400);
    await healthy();
  });
});

describe('malformed bodies', () => {
  it.each([
    ['malformed JSON', '{"site_key": "s"', 'body: malformed JSON'],
    ['an empty body', '', 'body: malformed JSON'],
    ['trailing garbage', '{"site_key":"s"} x', 'body: malformed JSON'],
  ])('%s is invalid_request', async (_name, body, detail) => {
    const r = await postJson(server.at('/challenge'), body);
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ success: false, error_code: 'invalid_request', detail });
  });

  it.each([['[]'], ['null'], ['42'], ['"s"']])('a root that is not an object (%s) is invalid_request', async (body) => {
    const r = await postJson(server.at('/challenge'), body);
    expect(r.status).toBe(400);
    expect(r.body.error_code).toBe('invalid_request');
  });

  it('wrong types are invalid_request with the field path', async () => {
    const ch = await challenge();
    const good = buildSubmission(server.kernel, ch);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ site_key: 5 }, /^site_key: /],
      [{ events: 'x' }, /^events: /],
      [{ events: [{ x: '1', y: 0, t: 0, type: 'move' }] }, /^events\/0\/x: /],
      [{ events: [{ x: 0, y: 0, t: 0, type: 'move', pointer_type: 3 }] }, /^events\/0\/pointer_type: /],
      [{ pow_proof: { nonce: '1', hash: 'h' } }, /^pow_proof\/nonce: /],
      [{ pow_proof: [] }, /^pow_proof: /],
      [{ timestamp: 'now' }, /^timestamp: /],
      [{ webauthn: { id: 1 } }, /^webauthn/],
      [{ probe_completion_tokens: [1] }, /^probe_completion_tokens\/0: /],
    ];
    for (const [patch, detail] of cases) {
      const r = await postVerify(server, { ...good, ...patch });
      expect(r.status, JSON.stringify(patch)).toBe(400);
      expect(r.body).toMatchObject({ success: false, score: 0, error_code: 'invalid_request' });
      expect(r.body.detail).toMatch(detail);
    }
    // None of that consumed the challenge.
    expect((await postVerify(server, good)).body.success).toBe(true);
  });

  it.each(['challenge_id', 'site_key', 'session_id', 'events', 'pow_proof', 'public_key', 'signature', 'timestamp'])(
    '/verify without %s is invalid_request naming it',
    async (field) => {
      const body = {
        challenge_id: 'c',
        site_key: 's',
        session_id: 'x',
        events: [],
        pow_proof: { nonce: 0, hash: '' },
        public_key: newSigner().publicKey,
        signature: 'x',
        timestamp: 0,
      };
      delete (body as Record<string, unknown>)[field];
      const r = await postVerify(server, body);
      expect(r.status).toBe(400);
      expect(r.body.detail).toMatch(new RegExp(`^${field}: `));
    },
  );

  it('an empty required string is invalid_request', async () => {
    const r = await postJson(server.at('/challenge'), { site_key: '' });
    expect(r.status).toBe(400);
    expect(r.body.detail).toMatch(/^site_key: /);
  });

  it.each(['a b', 'a/b', 'caf\u00e9', 'a\u0000b', 'a+b', 'ｓ'])(
    'site_key %j outside A-Z a-z 0-9 . _ - is invalid_request',
    async (siteKey) => {
      for (const route of ['/challenge', '/webauthn/register/options']) {
        const r = await postJson(server.at(route), { site_key: siteKey, stable_id: 'u' });
        expect(r.status).toBe(400);
        expect(r.body.detail).toMatch(/^site_key: /);
      }
      const r = await postJson(server.at('/siteverify'), { token: 'x', session_id: 's', sitekey: siteKey });
      expect(r.body).toMatchObject({ success: false, error: 'invalid_request' });
    },
  );

  it('every character of the site key set is accepted', async () => {
    const r = await postJson(server.at('/challenge'), { site_key: 'AZaz09._-' });
    expect(r.status).toBe(200);
  });

  it.each([
    ['/challenge', '{"site_key":"s","stable_id":"a\\ud800b"}'],
    ['/challenge', '{"site_key":"s","stable_id":"\\udc00"}'],
    ['/challenge', '{"site_key":"s","x\\udbff":1}'],
    ['/siteverify', '{"token":"a.b.c","session_id":"s\\ud800"}'],
    ['/probe/complete', '{"challenge_id":"c","session_id":"s","probe_ticket":"t\\udfff","tapped_cell":{"x":0,"y":0}}'],
  ])('%s: a string with a lone surrogate (%s) is invalid_request', async (route, json) => {
    const r = await postJson(server.at(route), json);
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ success: false, detail: 'body: a string holds a lone surrogate' });
  });

  it('a surrogate pair (one astral character) is text and is accepted', async () => {
    const r = await postJson(server.at('/challenge'), '{"site_key":"s","stable_id":"\\ud83d\\ude00"}');
    expect(r.status).toBe(200);
  });

  it('/verify with a lone surrogate in session_id is refused before the challenge is spent', async () => {
    const ch = await challenge();
    const good = buildSubmission(server.kernel, ch);
    const bad = JSON.stringify(good).replace(`"session_id":"${good.session_id}"`, '"session_id":"a\\ud800b"');
    expect(bad).toContain('\\ud800');
    const r = await postJson(server.at('/verify'), bad);
    expect(r.status).toBe(400);
    expect((await postVerify(server, good)).body.success).toBe(true);
  });

  it('__proto__ in a body pollutes nothing', async () => {
    const r = await postJson(server.at('/challenge'), '{"site_key":"s","__proto__":{"polluted":1}}');
    expect(r.status).toBe(200);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('methods and routes', () => {
  const post = [
    '/challenge',
    '/probe/arm',
    '/probe/complete',
    '/verify',
    '/siteverify',
    '/webauthn/register/options',
    '/webauthn/register/verify',
  ];

  it.each(post)('GET %s is 405 with Allow, at the root and under the prefix', async (path) => {
    for (const url of [server.at(path), server.at(`/api/captcha${path}`)]) {
      for (const method of ['GET', 'PUT', 'DELETE', 'PATCH']) {
        const r = await fetch(url, { method });
        expect(r.status).toBe(405);
        expect(r.headers.get('allow')).toBe('POST, OPTIONS');
        expect(await r.json()).toEqual({ success: false, error_code: 'method_not_allowed' });
      }
    }
  });

  it('POST /healthz is 405', async () => {
    const r = await fetch(server.at('/healthz'), { method: 'POST', body: '{}' });
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toBe('GET, OPTIONS');
  });

  it.each(['/', '/nope', '/verify/', '/api/captcha', '/api/captcha/nope', '/API/CAPTCHA/verify'])('%s is 404', async (path) => {
    for (const method of ['GET', 'POST']) {
      const r = await fetch(server.at(path), { method, ...(method === 'POST' ? { body: '{}' } : {}) });
      expect(r.status).toBe(404);
      expect(await r.json()).toEqual({ success: false, error_code: 'not_found' });
    }
  });
});

describe('aborted and slow uploads', () => {
  it('an upload aborted mid-body leaves the server serving', async () => {
    for (let i = 0; i < 20; i++) {
      await new Promise<void>((resolve) => {
        const s = connect(server.port, '127.0.0.1', () => {
          s.write('POST /verify HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5000\r\n\r\n{"challenge_id":');
          setTimeout(() => (s.destroy(), resolve()), 10);
        });
      });
    }
    await healthy();
    const ch = await challenge();
    expect((await postVerify(server, buildSubmission(server.kernel, ch))).body.success).toBe(true);
  });

  it('a slow upload is answered when it completes, and others are served meanwhile', async () => {
    const body = JSON.stringify({ site_key: 'slow' });
    const head = `POST /challenge HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const slow = raw([head, body.slice(0, 5), { delay: 300 }, body.slice(5, 10), { delay: 300 }, body.slice(10)], 5000);
    const started = Date.now();
    await healthy();
    expect(Date.now() - started).toBeLessThan(250);
    const res = await slow;
    expect(res).toMatch(/^HTTP\/1\.1 200 OK/);
    expect(res).toContain('"site_key":"slow"');
  });
});

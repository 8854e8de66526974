import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../../src/config.js';
import { ErrorStatus } from '../../../src/core/errors.js';
import { mountAssets } from '../../../src/http/assets/mountAssets.js';
import { buildSubmission, postJson, postVerify } from '../../helpers/client.js';
import { type TestServer, startTestServer, withServer } from '../../helpers/server.js';

const OPERATOR = 'operator-token-0123456789abcdef';
let server: TestServer;
let doc: any;
beforeAll(async () => {
  server = await startTestServer(
    { siteverifyAuthToken: OPERATOR },
    { mount: (app) => mountAssets(app, { verifyTokenInProcess: async () => ({ valid: false, score: 0, error: 'invalid_token' }) }) },
  );
  const r = await fetch(server.at('/openapi.json'));
  expect(r.headers.get('content-type')).toBe('application/json');
  doc = await r.json();
});
afterAll(async () => {
  await server.close();
});

/** Every (method, URL path) the document describes: each path under each of its servers. */
function documented(): Set<string> {
  const out = new Set<string>();
  for (const [path, item] of Object.entries<any>(doc.paths)) {
    const servers: { url: string }[] = item.servers ?? doc.servers;
    for (const method of ['get', 'post', 'put', 'delete', 'patch', 'head', 'options']) {
      if (item[method] === undefined) continue;
      for (const s of servers) out.add(`${method} ${s.url === '/' ? '' : s.url}${path}`);
    }
  }
  return out;
}

const ajv = addFormats.default(new Ajv2020({ strict: false, allErrors: true }));

/** Checks an answer against the document's schema for (path, method, status) (or that it does not conform). */
function conforms(path: string, method: string, status: number, body: unknown, expected = true): void {
  const response = doc.paths[path]?.[method]?.responses?.[String(status)];
  expect(response, `${method} ${path} documents ${status}`).toBeDefined();
  const schema = response.content['application/json'].schema;
  const ok = ajv.validate(schema, body);
  expect(ok, `${method} ${path} ${status}: ${JSON.stringify(body)} ${ajv.errorsText()}`).toBe(expected);
}

describe('GET /openapi.json', () => {
  it('is a valid OpenAPI 3.1 document (checked by an OpenAPI validator)', async () => {
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
  });

  it('lists exactly the routes the server registered, and no others', () => {
    const registered = new Set(
      server.routes.all.filter((r) => r.path !== '/*').map((r) => `${r.method === 'del' ? 'delete' : r.method} ${r.path}`),
    );
    expect([...documented()].sort()).toEqual([...registered].sort());
    // The fallbacks are the only routes not in the document.
    expect(
      server.routes.all
        .filter((r) => r.path === '/*')
        .map((r) => r.method)
        .sort(),
    ).toEqual(['any', 'options']);
  });

  it('every documented route is served by the router (no 404), and an undocumented one is not', async () => {
    for (const entry of documented()) {
      const [method, path] = entry.split(' ') as [string, string];
      const r = await fetch(server.url + path, {
        method: method.toUpperCase(),
        headers: { 'content-type': 'application/json' },
        ...(method === 'post' ? { body: '{}' } : {}),
      });
      await r.arrayBuffer();
      expect(r.status, entry).not.toBe(404);
    }
    expect((await fetch(server.at('/not-a-route'))).status).toBe(404);
  });

  it('names every error code with its status, and each route its own codes', () => {
    expect(doc.components.schemas.ErrorCode.enum.sort()).toEqual(Object.keys(ErrorStatus).sort());
    const verify = doc.paths['/verify'].post.responses;
    expect(verify['400'].content['application/json'].schema.properties.error_code.enum).toEqual(
      expect.arrayContaining(['invalid_pow', 'invalid_path', 'challenge_not_found', 'unknown_site_key', 'invalid_request']),
    );
    expect(verify['403'].content['application/json'].schema.properties.error_code.enum).toEqual(['hostname_not_allowed']);
    expect(verify['429'].headers['Retry-After']).toBeDefined();
    const siteverify = doc.paths['/siteverify'].post;
    expect(siteverify.responses['200'].content['application/json'].schema.oneOf[1].properties.error.enum).toEqual(
      expect.arrayContaining(['token_already_used', 'site_key_mismatch', 'remoteip_mismatch']),
    );
    expect(siteverify.responses['401']).toBeDefined();
    expect(siteverify.requestBody.content['application/x-www-form-urlencoded']).toBeDefined();
    expect(siteverify.requestBody.content['application/json'].schema.properties.idempotency_key.pattern).toBe('^[A-Za-z0-9._:-]{1,64}$');
  });

  it('lists the reCAPTCHA, hCaptcha and Turnstile shapes of siteverify, each answering only 200', () => {
    for (const path of ['/recaptcha/api/siteverify', '/turnstile/v0/siteverify']) {
      const op = doc.paths[path].post;
      expect(Object.keys(op.responses)).toEqual(['200']);
      expect(Object.keys(op.requestBody.content).sort()).toEqual(['application/json', 'application/x-www-form-urlencoded']);
      expect(op.requestBody.content['application/json'].schema.properties.response).toBeDefined();
      expect(op.security).toBeDefined();
      expect(doc.paths[path].servers.map((s: { url: string }) => s.url)).toEqual(['/', '/api/captcha']);
    }
    const refusal = (path: string, status = '200') =>
      doc.paths[path].post.responses[status].content['application/json'].schema.oneOf
        .at(-1)
        .properties['error-codes'].items.anyOf.map((c: any) => c.const);
    expect(refusal('/recaptcha/api/siteverify')).toEqual(
      expect.arrayContaining(['missing-input-secret', 'timeout-or-duplicate', 'bad-request']),
    );
    expect(refusal('/turnstile/v0/siteverify')).toEqual(
      expect.arrayContaining(['invalid-input-response', 'timeout-or-duplicate', 'internal-error']),
    );
    const siteverify = doc.paths['/siteverify'].post;
    expect(refusal('/siteverify')).toEqual(
      expect.arrayContaining(['already-seen-response', 'sitekey-secret-mismatch', 'expired-input-response']),
    );
    expect(siteverify.description).toMatch(/`response`/);
    expect(siteverify.requestBody.content['application/json'].schema.properties.response).toBeDefined();
  });

  it("real answers conform to the document's schemas", async () => {
    const ch = await postJson(server.at('/challenge'), { site_key: 'doc-site' });
    conforms('/challenge', 'post', 200, ch.body);
    const bad = await postJson(server.at('/challenge'), { site_key: 5 });
    conforms('/challenge', 'post', 400, bad.body);
    const test = await postJson(server.at('/challenge'), { site_key: 'test-always-pass' });
    conforms('/challenge', 'post', 200, test.body);

    const failed = await postVerify(server, buildSubmission(server.kernel, ch.body, { pow: { nonce: 0, hash: 'x' } }));
    conforms('/verify', 'post', 400, failed.body);
    const ch2 = (await postJson(server.at('/challenge'), { site_key: 'doc-site' })).body;
    const ok = await postVerify(server, buildSubmission(server.kernel, ch2, { sessionId: 's' }));
    conforms('/verify', 'post', 200, ok.body);

    const auth = { authorization: `Bearer ${OPERATOR}` };
    const redeemed = await postJson(server.at('/siteverify'), { token: ok.body.token, session_id: 's', remoteip: '127.0.0.1' }, auth);
    conforms('/siteverify', 'post', 200, redeemed.body);
    const used = await postJson(server.at('/siteverify'), { token: ok.body.token, session_id: 's' }, auth);
    conforms('/siteverify', 'post', 200, used.body);
    conforms('/siteverify', 'post', 400, (await postJson(server.at('/siteverify'), {}, auth)).body);
    conforms('/siteverify', 'post', 401, (await postJson(server.at('/siteverify'), { token: 'x', session_id: 's' })).body);
    conforms(
      '/siteverify',
      'post',
      200,
      (await postJson(server.at('/siteverify'), { token: 'x', session_id: 's', secret: 'test-secret-always-pass' })).body,
    );

    for (const path of ['/recaptcha/api/siteverify', '/siteverify', '/turnstile/v0/siteverify']) {
      const ch3 = (await postJson(server.at('/challenge'), { site_key: 'doc-site' })).body;
      const compatToken = (await postVerify(server, buildSubmission(server.kernel, ch3, { sessionId: 'hidden' }))).body.token;
      const compat = await postJson(server.at(path), { secret: OPERATOR, response: compatToken, remoteip: '' });
      expect(compat.body.success, path).toBe(true);
      conforms(path, 'post', 200, compat.body);
      conforms(path, 'post', 200, (await postJson(server.at(path), { secret: OPERATOR, response: compatToken })).body);
      conforms(path, 'post', 200, (await postJson(server.at(path), { response: '' })).body);
      conforms(path, 'post', 200, (await postJson(server.at(path), { secret: 'test-secret-always-pass', response: 'x' })).body);
      conforms(path, 'post', 200, { ...compat.body, 'error-codes': ['invented-code'] }, false);
    }

    const arm = await postJson(server.at('/probe/arm'), {
      challenge_id: ch2.id,
      site_key: 'doc-site',
      session_id: 's',
      probe_id: 'p',
      events: [],
    });
    conforms('/probe/arm', 'post', 400, arm.body);
    const complete = await postJson(server.at('/probe/complete'), {
      challenge_id: ch2.id,
      session_id: 's',
      probe_ticket: 't',
      tapped_cell: { x: 0, y: 0 },
    });
    conforms('/probe/complete', 'post', 400, complete.body);
    const register = await postJson(server.at('/webauthn/register/options'), { site_key: 'doc-site', stable_id: 'u' });
    conforms('/webauthn/register/options', 'post', 404, register.body);
    const big = await postJson(server.at('/verify'), 'x'.repeat(server.config.maxBodyBytes + 1));
    conforms('/verify', 'post', 413, big.body);
    conforms('/healthz', 'get', 200, await (await fetch(server.at('/healthz'))).json());
    conforms('/metrics', 'get', 401, await (await fetch(server.at('/metrics'))).json());
  });

  it('a /siteverify answer with reason codes (shadow mode, a low score) conforms too', async () => {
    await withServer({ siteverifyAuthToken: OPERATOR, scoring: { ...defaultConfig().scoring, mode: 'shadow' } }, async (shadow) => {
      const ch = (await postJson(shadow.at('/challenge'), { site_key: 'doc-site' })).body;
      const ok = await postVerify(shadow, buildSubmission(shadow.kernel, ch, { sessionId: 's' }));
      const redeemed = await postJson(
        shadow.at('/siteverify'),
        { token: ok.body.token, session_id: 's' },
        { authorization: `Bearer ${OPERATOR}` },
      );
      expect(redeemed.body.reasons.length).toBeGreaterThan(0);
      conforms('/siteverify', 'post', 200, redeemed.body);
      conforms('/siteverify', 'post', 200, { ...redeemed.body, reasons: ['not_a_code'] }, false);
    });
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mountAssets } from '../../src/http/assets/mountAssets.js';
import { CONTENT_SECURITY_POLICY } from '../../src/http/assets/securityHeaders.js';
import { exchange } from '../helpers/rawHttp.js';
import { type TestServer, startTestServer } from '../helpers/server.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer(
    {},
    {
      mount: (app, ctx) =>
        mountAssets(app, {
          apiPrefix: ctx.config.apiPrefix,
          verifyTokenInProcess: async () => ({ valid: false, score: 0, error: 'invalid_token' }),
        }),
    },
  );
});
afterAll(async () => {
  await server.close();
});

const FILES = [
  '/',
  '/ariadne.js',
  '/ariadne.mjs',
  '/ariadne-worker.js',
  '/kernel.wasm',
  '/demo/demo.js',
  '/demo/demo.css',
  '/demo/favicon.svg',
  '/favicon.ico',
  '/recaptcha/api.js',
  '/1/api.js',
  '/1/secure-api.js',
  '/turnstile/v0/api.js',
];

describe('the widget and the demo', () => {
  it.each(FILES)('%s carries the CSP, nosniff and a Referrer-Policy, and is served under API_PREFIX too', async (path) => {
    const root = await fetch(server.at(path));
    expect(root.status).toBe(200);
    expect(root.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
    expect(root.headers.get('x-content-type-options')).toBe('nosniff');
    expect(root.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    // Read before the next request: a body left unread on a connection the server closes fails in the client.
    const rootBody = Buffer.from(await root.arrayBuffer());
    const prefixed = await fetch(server.at(`/api/captcha${path}`));
    expect(prefixed.status).toBe(200);
    expect(prefixed.headers.get('etag')).toBe(root.headers.get('etag'));
    expect(Buffer.from(await prefixed.arrayBuffer()).equals(rootBody)).toBe(true);
  });

  it.each([
    ['/recaptcha/api.js', '/compat-recaptcha.js', 'grecaptcha'],
    ['/1/api.js', '/compat-hcaptcha.js', 'hcaptcha'],
    ['/1/secure-api.js', '/compat-hcaptcha.js', 'hcaptcha'],
    ['/turnstile/v0/api.js', '/compat-turnstile.js', 'turnstile'],
  ])('%s is the compatible script %s (a JavaScript file with its global), whatever its query', async (path, built, global) => {
    const r = await fetch(server.at(`${path}?onload=start&render=explicit&hl=fr&unknown=1`));
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const body = await r.text();
    expect(body).toContain(`.${global}=`);
    expect(await (await fetch(server.at(built))).text()).toBe(body);
  });

  it("the policy allows no inline script, no eval, only this origin's scripts, and wasm compilation", () => {
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self' 'wasm-unsafe-eval'");
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/'unsafe-inline'|'unsafe-eval'/);
  });

  it('HEAD of a file answers its headers and length, without the body', async () => {
    const size = (await (await fetch(server.at('/kernel.wasm'))).arrayBuffer()).byteLength;
    const r = await exchange(server.port, ['HEAD /api/captcha/kernel.wasm HTTP/1.1\r\nHost: x\r\n\r\n'], 500);
    expect(r.text).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(r.text).toMatch(new RegExp(`\r\ncontent-length: ${size}\r\n`, 'i'));
    expect(r.text).toMatch(/\r\ncontent-type: application\/wasm\r\n/i);
    expect(r.text.endsWith('\r\n\r\n')).toBe(true);
  });

  it('the demo backend answers under API_PREFIX too', async () => {
    for (const path of ['/demo/signup', '/api/captcha/demo/signup']) {
      const r = await fetch(server.at(path), {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: '{',
      });
      expect(r.status).toBe(400);
      expect(await r.json()).toMatchObject({ success: false, error_code: 'invalid_request' });
    }
  });
});

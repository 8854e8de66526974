/**
 * Published server-side verifiers, written for reCAPTCHA, hCaptcha and Turnstile and pinned as
 * devDependencies, pointed at a running Ariadne through their own URL options: each redeems a
 * real token (a maze solved through /challenge and /verify, as a compat widget does) and is
 * refused a replay. better-auth's captcha plugin covers the three shapes (form posts for
 * reCAPTCHA and hCaptcha, JSON for Turnstile); recaptcha-node and cf-turnstile show the codes;
 * @nestlab/google-recaptcha's validator (built as Nest would build it, without an app) tells a
 * v3 answer from a v2 one and checks the score and action of v3's.
 */
import { betterAuth } from 'better-auth';
import { memoryAdapter } from 'better-auth/adapters/memory';
import { captcha } from 'better-auth/plugins';
import cfTurnstile from 'cf-turnstile';
import { Logger } from '@nestjs/common';
import { GoogleRecaptchaValidator } from '@nestlab/google-recaptcha/services/validators/google-recaptcha.validator.js';
import { RecaptchaConfigRef } from '@nestlab/google-recaptcha/models/recaptcha-config-ref.js';
import axios from 'axios';
import { RecaptchaV3 } from 'recaptcha-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSubmission, postJson, postVerify } from '../../helpers/client.js';
import { type TestServer, startTestServer } from '../../helpers/server.js';
import { secretOf } from '../../helpers/sites.js';

// Its CommonJS export is the function itself, which its typings call `default`.
const turnstile = cfTurnstile as unknown as typeof cfTurnstile.default;

const sitesFile = {
  sites: {
    shop: { hostnames: ['shop.example'], secret: secretOf('shop') },
    blog: { hostnames: ['blog.example'], secret: secretOf('blog') },
    // Shadow mode: the tests' straight-line traces score 0 and still get a token.
    shadow: { hostnames: ['shadow.example'], secret: secretOf('shadow'), policy: { scoring: { mode: 'shadow' } } },
  },
};

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({}, { sitesFile });
});
afterAll(async () => {
  await server.close();
});

/**
 * A token of `site`, as the compat widget puts it in the form (its session id stays in the
 * widget); with `action`, as reCAPTCHA v3's execute(key, {action}) makes it.
 */
async function tokenOf(site: 'shop' | 'blog' | 'shadow' = 'shop', action?: string): Promise<string> {
  const origin = `https://${site}.example`;
  const ch = (await postJson(server.at('/challenge'), { site_key: site }, { origin })).body;
  const submission = buildSubmission(server.kernel, ch, { sessionId: `widget-${Math.random()}` });
  const r = await postVerify(server, action === undefined ? submission : { ...submission, action }, { origin });
  expect(r.body.success).toBe(true);
  return r.body.token;
}

type Provider = 'google-recaptcha' | 'hcaptcha' | 'cloudflare-turnstile';
const PATH_OF: Record<Provider, string> = {
  'google-recaptcha': '/recaptcha/api/siteverify',
  hcaptcha: '/siteverify',
  'cloudflare-turnstile': '/turnstile/v0/siteverify',
};

/** A better-auth app with e-mail sign-up behind its captcha plugin, verifying at Ariadne. */
function authApp(provider: Provider, opts: { secretKey?: string; siteKey?: string } = {}) {
  const warnings: unknown[][] = [];
  const auth = betterAuth({
    baseURL: 'http://app.localhost',
    secret: 'a-better-auth-secret-for-the-tests-only-0123456789',
    database: memoryAdapter({ user: [], session: [], account: [], verification: [] }),
    emailAndPassword: { enabled: true },
    telemetry: { enabled: false },
    logger: { level: 'warn', log: (_level: string, ...args: unknown[]) => void warnings.push(args) },
    plugins: [
      captcha({
        provider,
        secretKey: opts.secretKey ?? secretOf('shop'),
        siteVerifyURLOverride: server.at(PATH_OF[provider]),
        ...(provider === 'hcaptcha' && opts.siteKey !== undefined ? { siteKey: opts.siteKey } : {}),
      } as Parameters<typeof captcha>[0]),
    ],
  });
  let users = 0;
  const signUp = async (token: string) => {
    const res = await auth.handler(
      new Request('http://app.localhost/api/auth/sign-up/email', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-captcha-response': token, origin: 'http://app.localhost' },
        body: JSON.stringify({ email: `person${++users}@app.example`, password: 'a long enough password', name: 'Person' }),
      }),
    );
    return { status: res.status, body: (await res.json()) as any };
  };
  return { signUp, warnings };
}

describe('better-auth captcha plugin, pointed at Ariadne', () => {
  it.each<Provider>(['google-recaptcha', 'hcaptcha', 'cloudflare-turnstile'])(
    '%s: a solved token signs the person up; the same token again is refused',
    async (provider) => {
      const app = authApp(provider);
      const t = await tokenOf();
      const first = await app.signUp(t);
      expect(first.status).toBe(200);
      expect(first.body.user).toMatchObject({ email: 'person1@app.example' });
      const replay = await app.signUp(t);
      expect(replay).toMatchObject({ status: 403, body: { code: 'VERIFICATION_FAILED' } });
    },
  );

  it("cloudflare-turnstile: the refusal it logs carries Turnstile's duplicate code", async () => {
    const app = authApp('cloudflare-turnstile');
    const t = await tokenOf();
    expect((await app.signUp(t)).status).toBe(200);
    expect((await app.signUp(t)).status).toBe(403);
    expect(JSON.stringify(app.warnings)).toContain('"errorCodes":["timeout-or-duplicate"]');
  });

  it("hcaptcha: its siteKey binds the token; another site's key or secret is refused", async () => {
    const t = await tokenOf('shop');
    expect((await authApp('hcaptcha', { siteKey: 'blog' }).signUp(t)).status).toBe(403);
    expect((await authApp('hcaptcha', { secretKey: secretOf('blog') }).signUp(t)).status).toBe(403);
    expect((await authApp('hcaptcha', { siteKey: 'shop' }).signUp(t)).status).toBe(200);
  });

  it('a wrong secret is refused, not taken for an outage', async () => {
    const res = await authApp('google-recaptcha', { secretKey: 'not-the-secret' }).signUp(await tokenOf());
    expect(res).toMatchObject({ status: 403, body: { code: 'VERIFICATION_FAILED' } });
  });
});

describe('recaptcha-node, pointed at Ariadne by hostname, port and protocol', () => {
  const recaptcha = (secret = secretOf('shop')) => {
    const { hostname, port } = new URL(server.url);
    return new RecaptchaV3(secret, { hostname, port: Number(port), protocol: 'http' });
  };

  it('verifies a v3 token (with the empty remoteip it always sends), with the score and action; a replay is timeout-or-duplicate', async () => {
    const t = await tokenOf('shop', 'submit');
    const ok = await recaptcha().verify(t);
    expect(ok).toMatchObject({ success: true, hostname: 'shop.example', score: 1, action: 'submit' });
    expect(new Date(ok.challengeTimestamp!).toISOString()).toBe(ok.challengeTimestamp);
    const again = await recaptcha().verify(t);
    expect(again).toMatchObject({ success: false, errorCodes: ['timeout-or-duplicate'] });
  });

  it("answers another site's secret with invalid-input-response, and a wrong one with invalid-input-secret", async () => {
    const t = await tokenOf();
    expect(await recaptcha(secretOf('blog')).verify(t)).toMatchObject({ success: false, errorCodes: ['invalid-input-response'] });
    expect(await recaptcha('nope').verify(t, '127.0.0.1')).toMatchObject({ success: false, errorCodes: ['invalid-input-secret'] });
    expect((await recaptcha().verify(t, '127.0.0.1')).success).toBe(true);
  });
});

describe("@nestlab/google-recaptcha's validator, pointed at Ariadne by its network option", () => {
  /**
   * The validator as its module builds it: an axios instance (its CommonJS typings, which the
   * module's are), a logger and the module's options (`response`, how a guard reads the token
   * from a request, is not used by validate()).
   */
  type Http = ConstructorParameters<typeof GoogleRecaptchaValidator>[0];
  const validator = (secret: string) =>
    new GoogleRecaptchaValidator(
      axios.create() as unknown as Http,
      new Logger('recaptcha'),
      new RecaptchaConfigRef({
        secretKey: secret,
        network: server.at('/recaptcha/api/siteverify'),
        score: 0.5,
        actions: ['submit'],
        response: () => '',
      }),
    );

  it('a v3 token scored near 0 in shadow mode is refused for its score, one of another action for its action', async () => {
    const low = await validator(secretOf('shadow')).validate({ response: await tokenOf('shadow', 'submit') });
    expect(low).toMatchObject({ success: false, action: 'submit', errors: ['low-score'] });
    expect(low.score).toBeLessThan(0.01);
    const other = await validator(secretOf('shop')).validate({ response: await tokenOf('shop', 'login') });
    expect(other).toMatchObject({ success: false, action: 'login', errors: ['forbidden-action'] });
    const good = await validator(secretOf('shop')).validate({ response: await tokenOf('shop', 'submit') });
    expect(good).toMatchObject({ success: true, score: 1, action: 'submit', errors: [] });
  });

  it('a v2 token (no action) is answered as v2 answers: no score or action, so none is checked', async () => {
    const v2 = await validator(secretOf('shadow')).validate({ response: await tokenOf('shadow') });
    expect(v2).toMatchObject({ success: true, errors: [] });
    expect(v2.score).toBeUndefined();
    expect(v2.action).toBeUndefined();
    expect(v2.nativeResponse).not.toHaveProperty('score');
  });
});

describe('cf-turnstile, pointed at Ariadne by apiUrl', () => {
  const verify = (secret = secretOf('shop')) => turnstile(secret, { apiUrl: server.at('/turnstile/v0/siteverify') });

  it('verifies a token and checks its hostname; a replay is timeout-or-duplicate', async () => {
    const t = await tokenOf();
    const ok = await verify()(t, { hostname: 'shop.example', remoteip: '127.0.0.1' });
    expect(ok).toMatchObject({ success: true, hostname: 'shop.example', errors: [] });
    const again = await verify()(t);
    expect(again).toMatchObject({ success: false, errors: ['timeout-or-duplicate'] });
  });

  it('its hostname check refuses a token solved on another page', async () => {
    const t = await tokenOf();
    expect(await verify()(t, { hostname: 'elsewhere.example' })).toMatchObject({ success: false, errors: ['cfts-hostname-mismatch'] });
  });
});

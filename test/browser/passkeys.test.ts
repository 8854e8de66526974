import { createServer as createHttpServer } from 'node:http';
import type { Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config.js';
import { createServer } from '../../src/http/createServer.js';
import type { AriadneServer } from '../../src/http/createServer.js';
import type { Challenge } from '../../src/core/challenge/issueChallenge.js';
import type { CredentialStore } from '../../src/store/credentials/CredentialStore.js';
import { openFileCredentialStore } from '../../src/store/credentials/FileCredentialStore.js';
import { buildSubmission, solution, traceEvents } from '../helpers/client.js';
import { SCORING_OFF, testKernel } from '../helpers/server.js';
import { type Browser, findChromium, launchBrowser } from './helpers/browser.js';

/**
 * The test page: the ceremonies as a client runs them, calling the API from the browser.
 * WebAuthn needs a secure context, so the page is served from http://localhost.
 */
const PAGE = `<!doctype html><meta charset="utf-8"><title>passkeys</title><script>
const b64u = {
  decode: (s) => Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0)).buffer,
  encode: (b) => btoa(String.fromCharCode(...new Uint8Array(b))).replace(/\\+/g, '-').replace(/\\//g, '_').replace(/=+$/, ''),
};
async function post(api, route, body) {
  const res = await fetch(api + route, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: res.status, body: await res.json() };
}
const decodeIds = (descriptors) => descriptors.map((c) => ({ ...c, id: b64u.decode(c.id) }));
// A credential as the API takes it, with the named binary response fields in base64url.
const credentialJSON = (cred, fields) => ({
  id: cred.id, rawId: b64u.encode(cred.rawId), type: cred.type,
  response: Object.fromEntries(fields.map((f) => [f, b64u.encode(cred.response[f])])),
});
window.registerPasskey = async (api, siteKey, stableId) => {
  const { body } = await post(api, '/webauthn/register/options', { site_key: siteKey, stable_id: stableId });
  const o = body.options;
  const cred = await navigator.credentials.create({ publicKey: {
    ...o,
    challenge: b64u.decode(o.challenge),
    user: { ...o.user, id: b64u.decode(o.user.id) },
    excludeCredentials: decodeIds(o.excludeCredentials),
  } });
  const response = credentialJSON(cred, ['clientDataJSON', 'attestationObject']);
  response.response.transports = cred.response.getTransports();
  return { algorithm: cred.response.getPublicKeyAlgorithm(), result: await post(api, '/webauthn/register/verify', { session_id: body.session_id, response }) };
};
window.getChallenge = async (api, siteKey, stableId) =>
  (await post(api, '/challenge', { site_key: siteKey, stable_id: stableId, client_capabilities: { webauthn_available: true } })).body;
window.verifyWithPasskey = async (api, options, submission) => {
  const cred = await navigator.credentials.get({ publicKey: {
    ...options,
    challenge: b64u.decode(options.challenge),
    allowCredentials: decodeIds(options.allowCredentials),
  } });
  const webauthn = credentialJSON(cred, ['clientDataJSON', 'authenticatorData', 'signature']);
  if (cred.response.userHandle) webauthn.response.userHandle = b64u.encode(cred.response.userHandle);
  return post(api, '/verify', { ...submission, webauthn });
};
</script>`;

describe.skipIf(!findChromium())('passkeys in headless Chromium (CDP virtual authenticator)', () => {
  let pageServer: Server;
  let pageUrl: string;
  let api: string;
  let server: AriadneServer;
  let credentials: CredentialStore;
  let browser: Browser;
  let page: Page;
  let dataDir: string;

  beforeAll(async () => {
    pageServer = createHttpServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE));
    await new Promise<void>((resolve) => pageServer.listen(0, '127.0.0.1', resolve));
    const pagePort = (pageServer.address() as { port: number }).port;
    pageUrl = `http://localhost:${pagePort}/`;

    dataDir = await mkdtemp(path.join(tmpdir(), 'ariadne-browser-passkeys-'));
    credentials = await openFileCredentialStore(dataDir);
    server = await createServer({
      config: defaultConfig({ powDifficulty: 4, rateLimitPerMinute: 0, scoring: SCORING_OFF }),
      passkeys: {
        config: { mode: 'required', rpId: 'localhost', origins: [`http://localhost:${pagePort}`], rpName: 'Ariadne' },
        credentials,
      },
    });
    api = `http://127.0.0.1:${await server.listen('127.0.0.1', 0)}`;

    browser = await launchBrowser();
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    const cdp = await browser.context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
    });
    await page.goto(pageUrl);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close(1000);
    await credentials?.close();
    await new Promise((resolve) => pageServer?.close(resolve));
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('registers a passkey, then passes /verify with an assertion over the challenge', async () => {
    const registered = (await page.evaluate(([a, s, u]) => (window as any).registerPasskey(a, s, u), [api, 'site-a', 'browser-user'])) as {
      algorithm: number;
      result: { status: number; body: { success: boolean; credential_id: string } };
    };
    expect(registered.result.status).toBe(200);
    expect(registered.result.body.success).toBe(true);
    expect(registered.algorithm).toBe(-8); // EdDSA offered first, and the virtual authenticator takes it
    const stored = await credentials.get(registered.result.body.credential_id);
    expect(stored).toMatchObject({ siteKey: 'site-a', stableId: 'browser-user', alg: -8 });

    const challenge = (await page.evaluate(
      ([a, s, u]) => (window as any).getChallenge(a, s, u),
      [api, 'site-a', 'browser-user'],
    )) as Challenge & Record<string, any>;
    expect(challenge.requirements.webauthn).toEqual({ mode: 'required' });
    expect(challenge.webauthn_request_options!.allowCredentials.map((c: { id: string }) => c.id)).toEqual([
      registered.result.body.credential_id,
    ]);

    // The server reads real time: a trace of 1 ms steps fits the time since the challenge.
    const kernel = await testKernel();
    const events = traceEvents(challenge, solution(kernel, challenge), { stepMs: 1 });
    const submission = { ...buildSubmission(kernel, challenge, { sessionId: randomUUID(), events }), stable_id: 'browser-user' };
    const verified = (await page.evaluate(([a, o, s]) => (window as any).verifyWithPasskey(a, o, s), [
      api,
      challenge.webauthn_request_options,
      submission,
    ] as const)) as {
      status: number;
      body: Record<string, unknown>;
    };
    expect(verified).toEqual({ status: 200, body: { success: true, token: expect.any(String) } });

    // The same assertion cannot buy a second challenge: its signature is over this one only.
    const next = (await page.evaluate(([a, s, u]) => (window as any).getChallenge(a, s, u), [api, 'site-a', 'browser-user'])) as Challenge &
      Record<string, any>;
    const wrong = (await page.evaluate(([a, o, s]) => (window as any).verifyWithPasskey(a, o, s), [
      api,
      challenge.webauthn_request_options,
      {
        ...buildSubmission(kernel, next, { sessionId: randomUUID(), events: traceEvents(next, solution(kernel, next), { stepMs: 1 }) }),
        stable_id: 'browser-user',
      },
    ] as const)) as { status: number; body: Record<string, unknown> };
    expect(wrong).toEqual({ status: 400, body: { success: false, score: 0, error_code: 'webauthn_failed' } });
  });
});

// Passkeys with Chromium's CDP virtual authenticator: register one for a stable_id with the
// client's registerPasskey, then the widget runs the assertion the challenge offers and /verify accepts it.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findChromium } from './helpers/browser.js';
import { dragAlong, readyChallenge, siteverify, solutionOf, widgetOutcome, widgetSession } from './helpers/maze.js';
import { withAriadneAndChromium } from './helpers/withAriadneAndChromium.js';
import { addPlatformAuthenticator } from './helpers/platformAuthenticator.js';

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Passkey</title></head><body>
<div id="slot"></div>
<script type="module">
  import { render, registerPasskey } from '/ariadne.mjs';
  window.register = () => registerPasskey({ siteKey: 'demo', stableId: 'user-42' });
  window.show = () => render('#slot', { siteKey: 'demo', stableId: 'user-42' });
</script></body></html>`;

describe.skipIf(!findChromium())('the widget with a passkey in Chromium', { timeout: 90_000 }, () => {
  let dataDir: string;
  // Registered first, so the directory exists before the server starts and goes after it stops.
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'ariadne-passkeys-'));
  });
  afterAll(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });
  const live = withAriadneAndChromium({
    env: (port) => ({
      WEBAUTHN_MODE: 'preferred',
      WEBAUTHN_RP_ID: 'localhost',
      WEBAUTHN_ORIGIN: `http://localhost:${port}`,
      DATA_DIR: dataDir,
    }),
  });

  it('registers a passkey, then asserts it during verification', async () => {
    const probe = await fetch(`${live.server.url}/webauthn/register/options`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ site_key: 'demo', stable_id: 'probe' }),
    });
    expect(probe.status, 'the server was started with passkeys on').toBe(200);

    const page = await live.browser.context.newPage();
    await page.route(`${live.server.url}/test/passkey.html`, (route) => route.fulfill({ body: PAGE, contentType: 'text/html' }));
    const { cdp, authenticatorId } = await addPlatformAuthenticator(page);
    await page.goto(`${live.server.url}/test/passkey.html`);
    await page.waitForFunction(() => typeof (window as unknown as { register?: unknown }).register === 'function');
    const registered = await page.evaluate(() => (window as unknown as { register(): Promise<unknown> }).register());
    expect(registered).toMatchObject({ success: true });
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    const signCountBefore = credentials[0]!.signCount;

    const c = await readyChallenge(page, () => page.evaluate(() => (window as unknown as { show(): void }).show()));
    expect(c.webauthn_request_options?.allowCredentials?.length).toBe(1);
    const verifyBody = page.waitForRequest((r) => r.url().endsWith('/verify'));
    const outcome = widgetOutcome(page);
    await dragAlong(page, c, await solutionOf(c));
    const token = await outcome;
    const sent = (await verifyBody).postDataJSON() as { webauthn?: { id: string; response: Record<string, string> } };
    expect(sent.webauthn?.id).toBe(credentials[0]!.credentialId.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''));
    expect(Object.keys(sent.webauthn?.response ?? {})).toEqual(
      expect.arrayContaining(['clientDataJSON', 'authenticatorData', 'signature']),
    );
    const after = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(after.credentials[0]!.signCount).toBeGreaterThan(signCountBefore);
    expect(await siteverify(live.server.url, token, await widgetSession(page))).toMatchObject({ success: true });
    await page.close();
  });
});

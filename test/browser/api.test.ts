// The JS API from the ES module bundle: render(el, options) with callbacks and replaced texts,
// reduced motion honoured, and reset() giving a fresh challenge with the token cleared.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { findChromium } from './helpers/browser.js';
import { dragAlong, isChallengeResponse, nextChallenge, readyChallenge, solutionOf, statusText } from './helpers/maze.js';
import { withAriadneAndChromium } from './helpers/withAriadneAndChromium.js';

const PAGE = `<!doctype html><html lang="fr"><head><meta charset="utf-8"><title>API</title></head><body>
<form id="f"><div id="slot"></div></form>
<script type="module">
  import { render, reset } from '/ariadne.mjs';
  window.calls = [];
  window.handle = render('#slot', {
    siteKey: 'api-test',
    sessionId: 'session-from-the-site',
    texts: { ready: 'Tracez un chemin de S à E.', verified: 'Vérifié.' },
    onVerified: (token) => window.calls.push(['verified', token]),
    onError: (code) => window.calls.push(['error', code]),
    onExpired: () => window.calls.push(['expired']),
  });
  window.resetAll = reset;
</script></body></html>`;

/** A site on another origin (127.0.0.1 instead of localhost) embedding the classic script. */
const embedPage = (serviceUrl: string) => `<!doctype html><html><head><meta charset="utf-8"><title>Embed</title>
<script src="${serviceUrl}/ariadne.js" defer></script></head><body>
<form><ariadne-maze site-key="embed-test" session-id="embed-session"></ariadne-maze></form></body></html>`;

describe.skipIf(!findChromium())('the JS API in Chromium', { timeout: 90_000 }, () => {
  const live = withAriadneAndChromium({ context: { reducedMotion: 'reduce' } });

  it('renders from the module bundle, calls back, and resets', async () => {
    const page = await live.browser.context.newPage();
    await page.route(`${live.server.url}/test/api.html`, (route) => route.fulfill({ body: PAGE, contentType: 'text/html' }));
    const challengeRequest = page.waitForRequest((r) => r.url().endsWith('/challenge'));
    const challenge = nextChallenge(page);
    await page.goto(`${live.server.url}/test/api.html`);
    const sent = (await challengeRequest).postDataJSON() as Record<string, unknown>;
    expect(sent).toMatchObject({
      site_key: 'api-test',
      session_id: 'session-from-the-site',
      client_capabilities: { reduced_motion: true },
    });
    const c = await challenge;
    expect(c.site_key).toBe('api-test');
    await expect.poll(() => statusText(page)).toBe('Tracez un chemin de S à E.');
    const a11y = await page.evaluate(() => {
      const root = document.querySelector('ariadne-maze')!.shadowRoot!;
      return {
        group: root.querySelector('[role="group"]')?.getAttribute('aria-labelledby'),
        title: root.querySelector('#title')?.textContent,
        live: root.querySelector('[role="status"]')?.getAttribute('aria-live'),
        transition: getComputedStyle(root.querySelector('.bar > div')!).transitionDuration,
      };
    });
    expect(a11y).toEqual({ group: 'title', title: 'Human check', live: 'polite', transition: '0s' });

    await dragAlong(page, c, await solutionOf(c));
    await expect.poll(() => page.evaluate(() => (window as unknown as { calls: string[][] }).calls.length)).toBe(1);
    const [kind, token] = (await page.evaluate(() => (window as unknown as { calls: string[][] }).calls))[0]!;
    expect(kind).toBe('verified');
    expect(await page.evaluate(() => (window as unknown as { handle: { getResponse(): string } }).handle.getResponse())).toBe(token);
    expect(await page.locator('#f input[name="ariadne-response"]').inputValue()).toBe(token);
    expect(await page.locator('#f input[name="ariadne-session"]').inputValue()).toBe('session-from-the-site');
    expect(await statusText(page)).toBe('Vérifié.');

    const fresh = page.waitForResponse(isChallengeResponse);
    await page.evaluate(() => (window as unknown as { resetAll(): void }).resetAll());
    const c2 = (await (await fresh).json()) as { id: string };
    expect(c2.id).not.toBe(c.id);
    expect(await page.locator('#f input[name="ariadne-response"]').inputValue()).toBe('');
    await page.close();
  });

  it.each([
    ['', () => ({})],
    // The policy docs/deploying.md gives an embedding page: nothing inline, no eval.
    [
      ' under a strict Content-Security-Policy',
      (service: string) => ({
        'content-security-policy': `default-src 'none'; script-src ${service} 'wasm-unsafe-eval'; worker-src blob:; connect-src ${service}; style-src 'self'; base-uri 'none'`,
      }),
    ],
  ])('works from another origin%s: worker started through a blob, wasm and API over CORS', async (_name, policy) => {
    // A real server for the site (a fulfilled route would count as a public address space).
    const site = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html', ...policy(live.server.url) }).end(embedPage(live.server.url)),
    );
    await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
    const { port } = site.address() as AddressInfo;
    const page = await live.browser.context.newPage();
    const violations: string[] = [];
    page.on('console', (m) => {
      if (m.text().includes('Content Security Policy')) violations.push(m.text());
    });
    const c = await readyChallenge(page, () => page.goto(`http://127.0.0.1:${port}/embed.html`));
    expect(c.site_key).toBe('embed-test');
    await expect.poll(() => page.workers().map((w) => new URL(w.url()).protocol)).toContain('blob:');
    const verify = page.waitForResponse((r) => r.url() === `${live.server.url}/verify`);
    await dragAlong(page, c, await solutionOf(c));
    expect((await verify).status()).toBe(200);
    await expect.poll(() => page.locator('input[name="ariadne-response"]').inputValue()).not.toBe('');
    expect(violations).toEqual([]);
    await page.close();
    site.closeAllConnections();
    await new Promise((resolve) => site.close(resolve));
  });
});

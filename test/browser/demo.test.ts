// The demo page end to end: the sign-up button waits for the widget, the form posts the token
// to the demo backend, which redeems it in-process (once). Also takes the README screenshot
// (docs/demo.png when UPDATE_DOCS_SCREENSHOT is set, test-artifacts/ otherwise).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findChromium } from './helpers/browser.js';
import { dragAlong, readyChallenge, solutionOf, widgetOutcome } from './helpers/maze.js';
import { repoRoot } from './helpers/server.js';
import { withAriadneAndChromium } from './helpers/withAriadneAndChromium.js';

describe.skipIf(!findChromium())('the demo sign-up form in Chromium', { timeout: 90_000 }, () => {
  const live = withAriadneAndChromium();

  it('signs up with a verified widget under the strict CSP, and the same token is refused the second time', async () => {
    const page = await live.browser.context.newPage();
    // The page's Content-Security-Policy (no inline script or style, no eval; wasm-unsafe-eval)
    // must not block anything the widget does: Chromium reports each violation on the console.
    const violations: string[] = [];
    // Nothing the page or the browser asks for (its icon included) may fail or log an error.
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.text().includes('Content Security Policy')) violations.push(m.text());
      else if (m.type() === 'error') errors.push(m.text());
    });
    page.on('response', (r) => {
      if (r.status() >= 400) errors.push(`${r.status()} ${r.url()}`);
    });
    const served = page.waitForResponse((r) => new URL(r.url()).pathname === '/');
    const c = await readyChallenge(page, () => page.goto(live.server.url));
    expect((await served).headers()['content-security-policy']).toContain("script-src 'self' 'wasm-unsafe-eval'");
    // The shadow DOM's styles apply (a constructed sheet, which the policy allows).
    const border = await page.evaluate(() => {
      const box = document.querySelector('ariadne-maze')!.shadowRoot!.querySelector('.box')!;
      return getComputedStyle(box).borderTopLeftRadius;
    });
    expect(border).toBe('8px');
    await page.fill('#email', 'ada@example.com');
    await page.fill('#password', 'correct horse battery');
    expect(await page.locator('#submit').isDisabled()).toBe(true);
    const outcome = widgetOutcome(page);
    await dragAlong(page, c, await solutionOf(c));
    const token = await outcome;
    await expect.poll(() => page.locator('#submit').isEnabled()).toBe(true);
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    // The README's picture is refreshed on request only, so a test run leaves the tree clean.
    const shot = process.env.UPDATE_DOCS_SCREENSHOT ? 'docs/demo.png' : 'test-artifacts/demo.png';
    mkdirSync(path.dirname(path.join(repoRoot, shot)), { recursive: true });
    await page.screenshot({ path: path.join(repoRoot, shot), fullPage: true });

    expect(violations).toEqual([]);

    const session = await page.locator('input[name="ariadne-session"]').inputValue();
    const [response] = await Promise.all([page.waitForNavigation(), page.click('#submit')]);
    expect(response?.status()).toBe(200);
    expect(new URL(page.url()).pathname).toBe('/demo/signup');
    expect(await page.locator('h1').textContent()).toBe('Welcome');
    const said = (await page.locator('#outcome').textContent())!;
    expect(said).toContain('ada@example.com');
    // The server runs in shadow mode: the page says so, and shows the score to two decimals.
    expect(said).toContain('shadow mode');
    expect(said).toMatch(/score [01]\.\d\d\b/);
    expect(said).not.toMatch(/\d\.\d{3}/);
    expect(errors).toEqual([]);
    await page.screenshot({ path: path.join(repoRoot, 'test-artifacts', 'demo-signed-up.png'), fullPage: true });

    const again = await fetch(`${live.server.url}/demo/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({ email: 'ada@example.com', 'ariadne-response': token, 'ariadne-session': session }).toString(),
    });
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ success: false, error: 'token_already_used' });
    await page.close();
  });

  it('refuses a sign-up without a token', async () => {
    const res = await fetch(`${live.server.url}/demo/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'email=eve%40example.com',
    });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).toContain('Sign-up refused');
    expect(html).toContain('missing_input');
  });
});

describe.skipIf(!findChromium())('the demo page under a sites file without its site key', { timeout: 90_000 }, () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'ariadne-demo-'));
  const sitesFile = path.join(dir, 'sites.json');
  writeFileSync(sitesFile, JSON.stringify({ sites: { shop: { hostnames: ['localhost'], secret: 's'.repeat(40) } } }));
  const live = withAriadneAndChromium({ env: { SITES_FILE: sitesFile } });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('says at start-up and on the page that the sites file lacks the site "demo"', async () => {
    const warned = live.server
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { level: number; msg: string });
    expect(warned).toContainEqual(
      expect.objectContaining({
        level: 40,
        msg: expect.stringContaining(`the demo at / uses site key "demo", which ${sitesFile} does not list`),
      }),
    );
    const page = await live.browser.context.newPage();
    await page.goto(live.server.url);
    await expect.poll(() => page.locator('#hint').textContent(), { timeout: 20_000 }).toContain('SITES_FILE has no site "demo"');
    expect(await page.locator('#submit').isDisabled()).toBe(true);
    await page.close();
  });
});

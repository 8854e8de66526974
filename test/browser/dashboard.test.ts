// The operator dashboard in Chromium: refused without a session, the login form, every panel
// drawn by uPlot from the server's counts, live updates, the traces download, no console error
// and no Content-Security-Policy violation. UPDATE_DASHBOARD_SCREENSHOT=1 also writes
// docs/dashboard.png from the page drawn here.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Challenge } from '../../src/core/challenge/issueChallenge.js';
import { traceTimePassed } from '../helpers/ariadneNode.js';
import { buildSubmission, postJson } from '../helpers/client.js';
import { testKernel } from '../helpers/server.js';
import { findChromium } from './helpers/browser.js';
import { repoRoot } from './helpers/server.js';
import { withAriadneAndChromium } from './helpers/withAriadneAndChromium.js';

const TOKEN = 'dashboard-token-0123456789';
const PANELS = ['challenges', 'verify', 'acceptance', 'scores', 'reasons', 'inputs', 'siteverify', 'limited', 'pow', 'latency', 'drift'];

/** What went wrong on a page: console errors, uncaught errors, CSP violations. */
async function watch(page: Page): Promise<{ errors: string[]; violations: () => Promise<string[]> }> {
  const errors: string[] = [];
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  // Injected by the browser itself (not by the page), so it runs under the page's CSP unharmed.
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  return { errors, violations: () => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations) };
}

describe.skipIf(!findChromium())('the dashboard in Chromium', { timeout: 90_000 }, () => {
  const live = withAriadneAndChromium({
    env: { DASHBOARD_TOKEN: TOKEN, TRACE_SAMPLE_RATE: '1', SCORING_MODE: 'shadow', POW_DIFFICULTY: '6' },
    context: { viewport: { width: 1400, height: 1300 } },
  });

  /** Some traffic: challenges, a solved /verify (scored in shadow mode), a refused one, a redemption. */
  async function traffic(): Promise<void> {
    const kernel = await testKernel();
    const challenge = async (): Promise<Challenge> => (await postJson(`${live.server.url}/challenge`, { site_key: 'demo' })).body;
    const [a, b] = [await challenge(), await challenge()];
    const ok = buildSubmission(kernel, a, { sessionId: 'sess' });
    await traceTimePassed(a, ok);
    const verified = await postJson(`${live.server.url}/verify`, ok);
    expect(verified.body.success).toBe(true);
    const bad = { ...buildSubmission(kernel, b), signature: 'AAAA' };
    await traceTimePassed(b, bad);
    expect((await postJson(`${live.server.url}/verify`, bad)).body.success).toBe(false);
    expect((await postJson(`${live.server.url}/siteverify`, { token: verified.body.token, session_id: 'sess' })).body.success).toBe(true);
  }

  it('refuses the data without a session, then logs in and draws every panel, live, within the CSP', async () => {
    await traffic();
    const page = await live.browser.context.newPage();
    const watched = await watch(page);

    const refused = await page.goto(`${live.server.url}/dashboard/data`);
    expect(refused!.status()).toBe(401);
    expect(JSON.parse(await refused!.text())).toMatchObject({ error_code: 'unauthorized' });

    await page.goto(`${live.server.url}/dashboard`);
    await page.fill('#token', 'not-the-token-at-all');
    await page.click('button[type=submit]');
    await expect.poll(() => page.isVisible('#denied')).toBe(true);
    // The refusals above are logged as failed loads, rightly: what counts is what follows.
    watched.errors.length = 0;
    await page.fill('#token', TOKEN);
    await Promise.all([page.waitForURL(`${live.server.url}/dashboard`), page.click('button[type=submit]')]);
    const cookies = await live.browser.context.cookies(`${live.server.url}/dashboard`);
    expect(cookies.find((c) => c.name === 'ariadne_dashboard')).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/dashboard' });

    await expect.poll(() => page.locator('body[data-drawn][data-drift]').count(), { timeout: 15_000 }).toBe(1);
    for (const id of PANELS) {
      const canvas = page.locator(`#panel-${id} .uplot canvas`);
      expect(await canvas.count(), id).toBe(1);
      // Drawn: the canvas has a size and pixels that are not blank.
      const inked = await canvas.evaluate((c: HTMLCanvasElement) => {
        const pixels = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
        let n = 0;
        for (let i = 3; i < pixels.length; i += 4) if (pixels[i]! > 0) n++;
        return { width: c.width, height: c.height, n };
      });
      expect(inked.width, id).toBeGreaterThan(100);
      expect(inked.n, id).toBeGreaterThan(100);
    }
    // The counts reached the page: the legend of /verify outcomes names what happened.
    await expect.poll(() => page.locator('#panel-verify .u-legend').innerText(), { timeout: 15_000 }).toContain('invalid_signature');
    // Each panel is drawn from its own answer: a refresh may land between two of them.
    await expect.poll(() => page.locator('#panel-siteverify .u-legend').innerText(), { timeout: 15_000 }).toContain('ok');
    // The drift panel compared the one accepted trace with the table's calibration people.
    await expect.poll(() => page.locator('#panel-drift .u-legend').innerText(), { timeout: 15_000 }).toContain('W1 (1 accepted traces, table v3)');

    // The keyboard door panel: the site served, people first.
    await expect.poll(() => page.locator('#panel-keyboard table').innerText(), { timeout: 15_000 }).toMatch(/people_first\s+auto/);
    await page.locator('#panel-keyboard').screenshot({ path: path.join(repoRoot, 'test-artifacts', 'dashboard-keyboard-door.png') });

    // Live: the page asks again by itself.
    const drawn = Number(await page.getAttribute('body', 'data-drawn'));
    await expect.poll(async () => Number(await page.getAttribute('body', 'data-drawn')), { timeout: 15_000 }).toBeGreaterThan(drawn);

    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#traces')]);
    const lines = (await readFile((await download.path())!, 'utf8')).trimEnd().split('\n');
    expect(lines.map((l) => JSON.parse(l).outcome).sort()).toEqual(['invalid_signature', 'ok']);

    if (process.env.UPDATE_DASHBOARD_SCREENSHOT === '1') await page.screenshot({ path: path.join(repoRoot, 'docs/dashboard.png'), fullPage: true });
    expect(watched.errors).toEqual([]);
    expect(await watched.violations()).toEqual([]);
    await page.close();
  });
});

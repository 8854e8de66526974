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
    await expect
      .poll(() => page.locator('#panel-drift .u-legend').innerText(), { timeout: 15_000 })
      .toContain('W1 (1 accepted traces, table v3)');

    // The keyboard door panel: the site served, people first.
    await expect.poll(() => page.locator('#panel-keyboard table').innerText(), { timeout: 15_000 }).toMatch(/people_first\s+auto/);
    await page.locator('#panel-keyboard').screenshot({ path: path.join(repoRoot, 'test-artifacts', 'dashboard-keyboard-door.png') });

    // Live: the page asks again by itself.
    const drawn = Number(await page.getAttribute('body', 'data-drawn'));
    await expect.poll(async () => Number(await page.getAttribute('body', 'data-drawn')), { timeout: 15_000 }).toBeGreaterThan(drawn);

    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#traces')]);
    const lines = (await readFile((await download.path())!, 'utf8')).trimEnd().split('\n');
    expect(lines.map((l) => JSON.parse(l).outcome).sort()).toEqual(['invalid_signature', 'ok']);

    if (process.env.UPDATE_DASHBOARD_SCREENSHOT === '1')
      await page.screenshot({ path: path.join(repoRoot, 'docs/dashboard.png'), fullPage: true });
    expect(watched.errors).toEqual([]);
    expect(await watched.violations()).toEqual([]);
    await page.close();
  });

  it("at a 390 px viewport: nothing wider than the screen, no label or bar cut at a chart edge, and every chart's numbers in a table", async () => {
    await traffic();
    const page = await live.browser.context.newPage();
    await page.setViewportSize({ width: 390, height: 900 });
    const watched = await watch(page);
    await logIn(page, live.server.url);
    await expect.poll(() => page.locator('body[data-drawn][data-drift]').count(), { timeout: 15_000 }).toBe(1);
    await page.screenshot({ path: path.join(repoRoot, 'test-artifacts', 'dashboard-390.png'), fullPage: true });
    for (const id of ['scores', 'reasons', 'pow', 'drift'])
      await page.locator(`#panel-${id}`).screenshot({ path: path.join(repoRoot, 'test-artifacts', `dashboard-390-${id}.png`) });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    for (const id of PANELS) {
      // No ink in the outermost pixels of a chart: a label or bar reaching its edge was cut there.
      expect([id, (await chartInk(page, id)).edge]).toEqual([id, 0]);
    }
    // The first bar of the histogram (scores near 0, in shadow mode) lies whole inside the plot.
    expect((await chartInk(page, 'scores')).firstBar).toBeGreaterThan(2);
    // Each chart's numbers, as a table named like the chart: what a screen reader reads.
    for (const id of PANELS) {
      const title = (await page.locator(`#panel-${id} h2`).innerText()).trim();
      const table = page.getByRole('table', { name: title, exact: true });
      expect([id, await table.count()]).toEqual([id, 1]);
    }
    const verify = page.getByRole('table', { name: '/verify outcomes', exact: true });
    expect(await verify.getByRole('columnheader').allInnerTexts()).toEqual(expect.arrayContaining(['invalid_signature', 'ok']));
    const reasons = page.getByRole('table', { name: 'Reason codes', exact: true });
    expect(await reasons.getByRole('rowheader').allInnerTexts()).toContain('motion_too_smooth');
    // The legends name their series without the "--" values of a cursor that is not there.
    expect(await page.locator('.u-legend').allInnerTexts()).not.toContainEqual(expect.stringContaining('--'));
    expect(watched.errors).toEqual([]);
    await page.close();
  });
});

describe.skipIf(!findChromium())('the dashboard of a server with no traffic yet', { timeout: 90_000 }, () => {
  const live = withAriadneAndChromium({ env: { DASHBOARD_TOKEN: TOKEN }, context: { viewport: { width: 1000, height: 1300 } } });

  it('draws the empty latency panel with its axes and their labels', async () => {
    const page = await live.browser.context.newPage();
    await logIn(page, live.server.url);
    await expect.poll(() => page.locator('body[data-drawn]').count(), { timeout: 15_000 }).toBe(1);
    await page.screenshot({ path: path.join(repoRoot, 'test-artifacts', 'dashboard-empty.png'), fullPage: true });
    // Empty indeed: its table has nothing to list.
    expect(await page.getByRole('table', { name: 'Latency p50 / p99 per route (ms)', exact: true }).innerText()).toContain(
      'nothing in this window yet',
    );
    // Left of the plot: the y axis's labels; under it: the x axis's (times).
    const ink = await chartInk(page, 'latency');
    expect(ink.left).toBeGreaterThan(50);
    expect(ink.below).toBeGreaterThan(50);
    await page.close();
  });
});

/** Opens `url`/dashboard, logging in with the token unless the browser holds a session already. */
async function logIn(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/dashboard`);
  if ((await page.locator('#token').count()) === 0) return;
  await page.fill('#token', TOKEN);
  await Promise.all([page.waitForURL(`${url}/dashboard`), page.click('button[type=submit]')]);
}

/**
 * What a chart's canvas holds, read in the page: inked pixels in its 2 outermost columns (left,
 * right) and rows (bottom), where a label or bar reaching the edge was cut; how far inside the
 * plot's left edge (uPlot's .u-over) the first coloured pixel is along a row just above the
 * plot's bottom (a bar drawn whole starts inside); inked pixels left of the plot (the y axis's
 * labels) and below it (the x axis's).
 */
async function chartInk(page: Page, id: string): Promise<{ edge: number; firstBar: number; left: number; below: number }> {
  return page.locator(`#panel-${id} .uplot`).evaluate((root: HTMLElement) => {
    const canvas = root.querySelector('canvas')!;
    const ratio = canvas.width / canvas.clientWidth;
    const c = canvas.getBoundingClientRect();
    const o = root.querySelector('.u-over')!.getBoundingClientRect();
    const [w, h] = [canvas.width, canvas.height];
    const [left, bottom, right] = [o.left - c.left, o.bottom - c.top, o.right - c.left].map((v) => Math.round(v * ratio)) as [
      number,
      number,
      number,
    ];
    const px = canvas.getContext('2d')!.getImageData(0, 0, w, h).data;
    const inked = (x: number, y: number) => px[(y * w + x) * 4 + 3]! > 0;
    let edge = 0;
    for (let y = 0; y < h; y++) for (const x of [0, 1, w - 2, w - 1]) if (inked(x, y)) edge++;
    for (const y of [h - 2, h - 1]) for (let x = 2; x < w - 2; x++) if (inked(x, y)) edge++;
    let firstBar = -1;
    for (let x = left, y = bottom - 3; x < right && firstBar < 0; x++) {
      const i = (y * w + x) * 4;
      if (px[i + 3]! > 0 && Math.max(px[i]!, px[i + 1]!, px[i + 2]!) - Math.min(px[i]!, px[i + 1]!, px[i + 2]!) > 40)
        firstBar = (x - left) / ratio;
    }
    let axisLeft = 0;
    let below = 0;
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        if (!inked(x, y)) continue;
        if (x < left && y < bottom) axisLeft++;
        if (y >= bottom) below++;
      }
    }
    return { edge, firstBar, left: axisLeft, below };
  });
}

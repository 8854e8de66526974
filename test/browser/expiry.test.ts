// A short CHALLENGE_TTL_MS: the widget replaces an expiring challenge by itself, says so, fires
// `ariadne-expired`, and the fresh challenge verifies; but a keyboard solve under way is kept past
// it, and verifies within the keyboard life (KEYBOARD_CHALLENGE_TTL_MS, default 600 s).
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findChromium } from './helpers/browser.js';
import {
  isChallengeResponse,
  keyAlong,
  nextChallenge,
  siteverify,
  solutionOf,
  statusText,
  widgetOutcome,
  widgetSession,
} from './helpers/maze.js';
import { repoRoot } from './helpers/server.js';
import { withAriadneAndChromium } from './helpers/withAriadneAndChromium.js';

const TTL_MS = 8_000;

describe.skipIf(!findChromium())('challenge expiry in Chromium', { timeout: 90_000 }, () => {
  const live = withAriadneAndChromium({ env: { CHALLENGE_TTL_MS: String(TTL_MS) } });

  it('fetches a fresh challenge before the old one expires, and the fresh one verifies', async () => {
    const page = await live.browser.context.newPage();
    await page.addInitScript(() => {
      (window as unknown as { expiredCount: number }).expiredCount = 0;
      document.addEventListener('ariadne-expired', () => (window as unknown as { expiredCount: number }).expiredCount++);
    });
    const first = nextChallenge(page);
    await page.goto(live.server.url);
    const c1 = await first;
    expect(c1.expires_at - c1.created_at).toBe(TTL_MS);
    const second = nextChallenge(page, TTL_MS + 5_000);
    const c2 = await second;
    expect(c2.id).not.toBe(c1.id);
    expect(c2.created_at).toBeGreaterThan(c1.created_at);
    expect(c2.created_at).toBeLessThan(c1.expires_at);
    await expect.poll(() => statusText(page)).toBe('The puzzle expired. Here is a new one.');
    expect(await page.evaluate(() => (window as unknown as { expiredCount: number }).expiredCount)).toBe(1);
    await page.screenshot({ path: path.join(repoRoot, 'test-artifacts', 'expired-refreshed.png'), fullPage: true });

    await page.locator('ariadne-maze canvas').focus();
    const outcome = widgetOutcome(page);
    await keyAlong(page, await solutionOf(c2));
    const token = await outcome;
    expect(await siteverify(live.server.url, token, await widgetSession(page))).toMatchObject({ success: true, challenge_id: c2.id });
    await page.close();
  });

  it('keeps a keyboard solve under way past expires_at, and it verifies on its own challenge', async () => {
    const page = await live.browser.context.newPage();
    let fetched = 0;
    page.on('response', (r) => void (isChallengeResponse(r) && fetched++));
    const first = nextChallenge(page);
    await page.goto(live.server.url);
    const c = await first;
    await expect.poll(() => statusText(page)).toContain('Trace a path');
    const path = await solutionOf(c);
    const half = Math.ceil(path.length / 2);
    await page.locator('ariadne-maze canvas').focus();
    await keyAlong(page, path.slice(0, half));
    // Past the pointer life (and its refresh margin), still on the same cell and challenge.
    await new Promise((r) => setTimeout(r, Math.max(0, c.expires_at - Date.now()) + 2_000));
    expect(fetched).toBe(1);
    expect(await statusText(page)).not.toContain('expired');
    const outcome = widgetOutcome(page);
    await keyAlong(page, path.slice(half - 1), false);
    const token = await outcome;
    expect(fetched).toBe(1);
    expect(await siteverify(live.server.url, token, await widgetSession(page))).toMatchObject({ success: true, challenge_id: c.id });
    await page.close();
  });
});

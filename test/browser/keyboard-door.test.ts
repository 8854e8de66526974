// A site whose keyboard door is in a surge (pinned here with KEYBOARD_DOOR=surge): the widget says
// so in its status line (what a screen reader reads), a keyboard solve pays the surge's proof of
// work, and its token says it was judged by the strict keyboard model.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findChromium } from './helpers/browser.js';
import { keyAlong, nextChallenge, siteverify, solutionOf, statusText, widgetOutcome, widgetSession } from './helpers/maze.js';
import { repoRoot } from './helpers/server.js';
import { withAriadneAndChromium } from './helpers/withAriadneAndChromium.js';

describe.skipIf(!findChromium())('the keyboard door in Chromium', { timeout: 90_000 }, () => {
  const live = withAriadneAndChromium({ env: { KEYBOARD_DOOR: 'surge' } });

  it('explains a surge in the status line, and a keyboard solve is judged strictly', async () => {
    const page = await live.browser.context.newPage();
    const first = nextChallenge(page);
    await page.goto(live.server.url);
    const c = await first;
    expect(c).toMatchObject({ keyboard_door: 'surge', pow_difficulty_keyboard: c.pow_difficulty + 6 });
    await expect.poll(() => statusText(page)).toContain('for a few minutes keyboard solving is checked more strictly');
    expect(await statusText(page)).toContain('Trace a path');
    await page.screenshot({ path: path.join(repoRoot, 'test-artifacts', 'keyboard-door-surge.png'), fullPage: true });
    await page.locator('ariadne-maze canvas').focus();
    const outcome = widgetOutcome(page);
    await keyAlong(page, await solutionOf(c));
    const token = await outcome;
    expect(await siteverify(live.server.url, token, await widgetSession(page))).toMatchObject({
      success: true,
      input_type: 'keyboard',
      method: 'keyboard_strict',
    });
    await page.close();
  });
});

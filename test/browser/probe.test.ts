// Colour-tap probes (PROBE_PROBABILITY=1): the probe appears on the trigger cell with colour,
// shape and name, the same trace resumes after it; a wrong tap is a failure shown with a retry,
// and the retried challenge is solved by keyboard.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Challenge } from '../../src/client/api.js';
import { PROBE_COLORS } from '../../src/core/probe/probeLayout.js';
import { findChromium } from './helpers/browser.js';
import {
  dragAlong,
  keyAlong,
  nextWidgetError,
  readyChallenge,
  siteverify,
  solutionOf,
  statusText,
  widgetOutcome,
  widgetSession,
} from './helpers/maze.js';
import { repoRoot } from './helpers/server.js';
import { withAriadneAndChromium } from './helpers/withAriadneAndChromium.js';

const artifacts = path.join(repoRoot, 'test-artifacts');
const SHAPES = ['circle', 'square', 'triangle', 'star', 'diamond', 'hexagon'];

function probeOf(c: Challenge) {
  const p = c.probes?.[0];
  if (!p) throw new Error('challenge without a probe');
  return p;
}

async function triggerIndex(c: Challenge): Promise<number> {
  const t = probeOf(c).trigger_cell;
  const i = (await solutionOf(c)).findIndex((s) => s.x === t.x && s.y === t.y);
  expect(i).toBeGreaterThan(0);
  return i;
}

/** The name of a probe colour (the service sends hex). */
const colorName = (hex: string): string => PROBE_COLORS.find((c) => c.hex === hex)!.name;

const probeButtons = (page: Page) => page.locator('ariadne-maze .probe-cell');

describe.skipIf(!findChromium())('probes in Chromium', { timeout: 90_000 }, () => {
  const live = withAriadneAndChromium({ env: { PROBE_PROBABILITY: '1' } });

  it('shows the probe at the trigger cell and resumes the same trace after the tap', async () => {
    const page = await live.browser.context.newPage();
    const c = await readyChallenge(page, () => page.goto(live.server.url));
    expect(c.challenge_type).toBe('maze_stroop');
    const probe = probeOf(c);
    const cells = await solutionOf(c);
    const at = await triggerIndex(c);

    const armed = page.waitForResponse((r) => r.url().endsWith('/probe/arm'));
    await dragAlong(page, c, cells.slice(0, at + 1));
    expect((await armed).status()).toBe(200);
    await expect.poll(() => probeButtons(page).count()).toBe(probe.cells.length);
    // Never colour alone: every button names its colour and shape, in text and accessibly.
    const labels = await probeButtons(page).evaluateAll((bs) => bs.map((b) => [b.getAttribute('aria-label'), b.textContent]));
    for (const [label, text] of labels) {
      const [color, shape] = (label ?? '').split(' ');
      expect(SHAPES).toContain(shape);
      expect(text).toContain(color);
    }
    expect(new Set(labels.map(([l]) => l)).size).toBe(labels.length);
    const target = labels.find(([l]) => l?.startsWith(`${colorName(probe.target_color)} `))![0]!;
    expect(await statusText(page)).toBe(`Tap the ${target}.`);
    await page.screenshot({ path: path.join(artifacts, 'probe.png'), fullPage: true });

    await page.waitForTimeout(400);
    const verifyBody = page.waitForRequest((r) => r.url().endsWith('/verify'));
    const outcome = widgetOutcome(page);
    await page.getByRole('button', { name: target }).click();
    await expect.poll(() => probeButtons(page).count()).toBe(0);
    await dragAlong(page, c, cells.slice(at));
    const token = await outcome;
    const sent = (await verifyBody).postDataJSON() as { probe_completion_tokens?: string[] };
    expect(sent.probe_completion_tokens).toHaveLength(1);
    expect(await siteverify(live.server.url, token, await widgetSession(page))).toMatchObject({ success: true });
    await page.close();
  });

  it('shows a wrong tap as a failure with a retry, and the retry passes by keyboard', async () => {
    const page = await live.browser.context.newPage();
    let c = await readyChallenge(page, () => page.goto(live.server.url));
    let cells = await solutionOf(c);
    let at = await triggerIndex(c);
    await page.locator('ariadne-maze canvas').focus();
    await keyAlong(page, cells.slice(0, at + 1));
    await expect.poll(() => probeButtons(page).count()).toBeGreaterThan(1);
    await page.waitForTimeout(400);
    const errors = nextWidgetError(page);
    const wrong = probeOf(c).cells.find((p) => p.color !== probeOf(c).target_color)!;
    await page.locator(`ariadne-maze .probe-cell[data-x="${wrong.x}"][data-y="${wrong.y}"]`).click();
    expect(await errors).toBe('wrong_cell');
    const retry = page.getByRole('button', { name: 'Try again' });
    await expect.poll(() => retry.isVisible()).toBe(true);
    expect(await statusText(page)).toBe('That was not the asked shape. Please try again.');
    expect(await page.locator('input[name="ariadne-response"]').inputValue()).toBe('');
    await page.screenshot({ path: path.join(artifacts, 'probe-wrong-tap.png'), fullPage: true });

    // Retry from the keyboard: a fresh challenge, the probe answered with Tab and Enter.
    c = await readyChallenge(page, async () => {
      await retry.focus();
      await page.keyboard.press('Enter');
    });
    cells = await solutionOf(c);
    at = await triggerIndex(c);
    expect(await retry.isVisible()).toBe(false);
    await page.locator('ariadne-maze canvas').focus();
    await keyAlong(page, cells.slice(0, at + 1));
    await expect.poll(() => probeButtons(page).count()).toBeGreaterThan(1);
    const probe = probeOf(c);
    const target = `${colorName(probe.target_color)} `;
    for (let i = 0; i < probe.cells.length; i++) {
      const focused = await page.evaluate(
        () => document.querySelector('ariadne-maze')!.shadowRoot!.activeElement?.getAttribute('aria-label') ?? '',
      );
      if (focused.startsWith(target)) break;
      await page.keyboard.press('Tab');
    }
    await page.waitForTimeout(300);
    const outcome = widgetOutcome(page);
    await page.keyboard.press('Enter');
    await expect.poll(() => probeButtons(page).count()).toBe(0);
    await keyAlong(page, cells.slice(at), false);
    const token = await outcome;
    expect(await siteverify(live.server.url, token, await widgetSession(page))).toMatchObject({ success: true });
    await page.close();
  });
});

// The deployed widget of this interface, `@cernosh/react` as published (bundled unmodified from
// node_modules), against the real server in real Chromium, with only its base URL set: mouse,
// keyboard, probes, its compact size, another origin, a person who waits before tracing, and a
// challenge that expires. Its pointer collector keeps moves >= 33 ms apart, so the drags here
// step every 36 to 50 ms (helpers/maze.ts).
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Challenge } from '../../src/client/api.js';
import { hexZeroBits } from '../../src/client/powSearch.js';
import type { Cell, RawEvent } from '../../src/kernel/types.js';
import { findChromium } from './helpers/browser.js';
import {
  CERNO_CANVAS,
  type CernoOptions,
  cernoCallbacks,
  cernoQuery,
  nextExchange,
  routeCernoPage,
  startCernoSite,
} from './helpers/cernoWidget.js';
import { dragAlong, keyAlong, nextChallenge, siteverify, solutionOf } from './helpers/maze.js';
import { withAriadneAndChromium } from './helpers/withAriadneAndChromium.js';

/** Cell sizes the widget draws, whatever the challenge's cell_size says. */
const WIDGET_CELL = { normal: 40, compact: 28 } as const;

/** Opens the widget at `url` and resolves with its challenge once its maze is drawn. */
async function openWidget(page: Page, url: string): Promise<Challenge> {
  const challenge = nextChallenge(page);
  await page.goto(url);
  const c = await challenge;
  await page.locator(CERNO_CANVAS).waitFor();
  return c;
}

/** The widget on a page of the server's own origin (its default apiUrl, /api/captcha, unchanged). */
async function openSameOrigin(page: Page, origin: string, options: CernoOptions): Promise<Challenge> {
  const base = await routeCernoPage(page, origin);
  return openWidget(page, `${base}?${cernoQuery(options)}`);
}

/** Drags the pointer along `cells` on the widget's canvas of `size`. */
function drag(page: Page, c: Challenge, cells: readonly Cell[], size: keyof typeof WIDGET_CELL = 'normal'): Promise<void> {
  return dragAlong(page, { ...c, cell_size: WIDGET_CELL[size] }, cells, CERNO_CANVAS);
}

const span = (events: readonly RawEvent[]): number => Math.max(...events.map((e) => e.t)) - Math.min(...events.map((e) => e.t));
const sameCell = (a: Cell, b: Cell) => a.x === b.x && a.y === b.y;
const triggerIndex = (c: Challenge, cells: readonly Cell[]) => cells.findIndex((s) => sameCell(s, c.probes![0]!.trigger_cell));

/** Where a keydown of the widget says the cursor is (maze fractions of a cell centre). */
const keyCell = (c: Challenge, e: RawEvent): Cell => ({ x: Math.floor(e.x * c.maze_width), y: Math.floor(e.y * c.maze_height) });

describe.skipIf(!findChromium())('the deployed widget (@cernosh/react 0.3) in Chromium', { timeout: 60_000 }, () => {
  const live = withAriadneAndChromium();

  it('gets a token by mouse at its default API prefix, which /siteverify redeems once', async () => {
    const page = await live.browser.context.newPage();
    const sessionId = 'cerno-mouse';
    const challengeSent = nextExchange(page, '/challenge');
    const c = await openSameOrigin(page, live.server.url, { siteKey: 'cerno-site', sessionId });
    const sent = await challengeSent;
    expect(sent.body).toMatchObject({ site_key: 'cerno-site', session_id: sessionId, client_capabilities: { reduced_motion: false } });
    expect(typeof sent.body.public_key).toBe('string');

    const verify = nextExchange(page, '/verify');
    await drag(page, c, await solutionOf(c));
    const v = await verify;
    expect(v.url).toBe(`${live.server.url}/api/captcha/verify`);
    expect(v.body).toMatchObject({ challenge_id: c.id, site_key: 'cerno-site', session_id: sessionId });
    expect(v.body).not.toHaveProperty('maze_seed');
    expect(v.status).toBe(200);
    const token = v.answer.token as string;
    await expect.poll(async () => (await cernoCallbacks(page)).tokens).toEqual([token]);
    await expect.poll(() => page.getByText('Verified', { exact: true }).count()).toBe(1);

    expect(await siteverify(live.server.url, token, sessionId)).toMatchObject({
      success: true,
      challenge_id: c.id,
      session_id: sessionId,
      site_key: 'cerno-site',
      input_type: 'mouse',
    });
    expect(await siteverify(live.server.url, token, sessionId)).toMatchObject({ success: false, error: 'token_already_used' });
    await page.close();
  });

  it('accepts a person who waits seconds after the widget mounts before tracing: its clock starts at the press', async () => {
    const page = await live.browser.context.newPage();
    const sessionId = 'cerno-wait';
    const c = await openSameOrigin(page, live.server.url, { siteKey: 'cerno-site', sessionId });
    const shownAt = Date.now();
    const cells = await solutionOf(c);
    // Hovering over the maze (the widget records these moves) while reading, then a pause.
    const box = (await page.locator(CERNO_CANVAS).boundingBox())!;
    await page.mouse.move(box.x + box.width * 0.6, box.y + box.height * 0.5, { steps: 6 });
    await page.mouse.move(box.x + box.width * 0.2, box.y + box.height * 0.3, { steps: 6 });
    await page.waitForTimeout(3_000);

    const verify = nextExchange(page, '/verify');
    const pressedAt = Date.now();
    await drag(page, c, cells);
    const v = await verify;
    const sentAt = Date.now();
    const events = v.body.events as RawEvent[];
    // Its time starts at the first move after the press on the start cell (the hover and the
    // press itself are dropped), so the span is the drag's, inside the time the server saw.
    expect(events[0]).toMatchObject({ t: 0, type: 'move' });
    expect(span(events)).toBeLessThanOrEqual(sentAt - pressedAt);
    expect(span(events)).toBeLessThan(sentAt - shownAt - 3_000);
    expect(v.status).toBe(200);
    expect(await siteverify(live.server.url, v.answer.token as string, sessionId)).toMatchObject({ success: true, challenge_id: c.id });
    await page.close();
  });

  it('works from another origin with the base URL set: CORS on every route it calls', async () => {
    const site = await startCernoSite();
    try {
      const page = await live.browser.context.newPage();
      const sessionId = 'cerno-cross';
      const c = await openWidget(
        page,
        `${site.url}?${cernoQuery({ siteKey: 'cerno-site', sessionId, apiUrl: `${live.server.url}/api/captcha` })}`,
      );
      const verify = page.waitForResponse((r) => r.url() === `${live.server.url}/api/captcha/verify` && r.request().method() === 'POST');
      await drag(page, c, await solutionOf(c));
      const res = await verify;
      expect(res.status()).toBe(200);
      expect(res.headers()['access-control-allow-origin']).toBe('*');
      const token = (await res.json()).token as string;
      await expect.poll(async () => (await cernoCallbacks(page)).tokens).toEqual([token]);
      expect(await siteverify(live.server.url, token, sessionId)).toMatchObject({ success: true, hostname: '127.0.0.1' });
      await page.close();
    } finally {
      await site.close();
    }
  });

  it('gets a token at its compact size, which draws 28 px cells', async () => {
    const page = await live.browser.context.newPage();
    const c = await openSameOrigin(page, live.server.url, { siteKey: 'cerno-site', sessionId: 'cerno-compact', size: 'compact' });
    const box = (await page.locator(CERNO_CANVAS).boundingBox())!;
    expect(box.width).toBe(c.maze_width * WIDGET_CELL.compact + 40);
    const verify = nextExchange(page, '/verify');
    await drag(page, c, await solutionOf(c), 'compact');
    const v = await verify;
    expect(v.answer).toMatchObject({ success: true });
    expect(await siteverify(live.server.url, v.answer.token as string, 'cerno-compact')).toMatchObject({ success: true });
    await page.close();
  });

  it('by keyboard: the path replays, and the proof passes only when it happens to meet the keyboard difficulty', async () => {
    const page = await live.browser.context.newPage();
    const sessionId = 'cerno-keys';
    const c = await openSameOrigin(page, live.server.url, { siteKey: 'cerno-site', sessionId });
    const cells = await solutionOf(c);
    const verify = nextExchange(page, '/verify');
    await keyAlong(page, cells, false);
    const v = await verify;
    const events = v.body.events as RawEvent[];
    // Its form: a keydown and a keyup per arrow, at the cell the key took the cursor to; none on
    // the start cell (the walk begins there all the same).
    expect(events.every((e) => e.type === 'keydown' || e.type === 'keyup')).toBe(true);
    expect(events.filter((e) => e.type === 'keydown').map((e) => keyCell(c, e))).toEqual(cells.slice(1));
    // It searches only pow_difficulty; a keyboard solve needs pow_difficulty_keyboard.
    const proof = v.body.pow_proof as { hash: string };
    const bits = hexZeroBits(proof.hash);
    expect(bits).toBeGreaterThanOrEqual(c.pow_difficulty);
    expect(c.pow_difficulty_keyboard).toBe(c.pow_difficulty + 3);
    if (bits >= c.pow_difficulty_keyboard!) {
      expect(v.answer).toMatchObject({ success: true });
      expect(await siteverify(live.server.url, v.answer.token as string, sessionId)).toMatchObject({
        success: true,
        input_type: 'keyboard',
      });
    } else {
      expect(v.status).toBe(400);
      expect(v.answer).toEqual({
        success: false,
        score: 0,
        error_code: 'invalid_pow',
        detail: `a keyboard solve needs ${c.pow_difficulty_keyboard} leading zero bits`,
      });
      // It shows the code's message and a retry, which fetches a fresh challenge.
      await expect.poll(() => page.getByText('Verification error. Please try again.').count()).toBe(1);
      const fresh = nextChallenge(page);
      await page.getByRole('button', { name: 'Try again (2 left)' }).click();
      const c2 = await fresh;
      expect(c2.id).not.toBe(c.id);
      await page.locator(CERNO_CANVAS).waitFor();
      const again = nextExchange(page, '/verify');
      await drag(page, c2, await solutionOf(c2));
      expect((await again).answer).toMatchObject({ success: true });
    }
    await page.close();
  });
});

describe.skipIf(!findChromium())('the deployed widget with probes (PROBE_PROBABILITY=1)', { timeout: 60_000 }, () => {
  // Keyboard solves cost what pointer ones do here, so its keyboard path can finish every time.
  const live = withAriadneAndChromium({ env: { PROBE_PROBABILITY: '1', POW_KEYBOARD_EXTRA_BITS: '0' } });
  const probeButtons = (page: Page) => page.locator('button[aria-label]');

  /** Waits for the probe, checks its buttons name colour and shape, and returns the target's. */
  async function shownProbe(page: Page, c: Challenge) {
    const probe = c.probes![0]!;
    await expect.poll(() => probeButtons(page).count()).toBe(probe.cells.length);
    const buttons = await probeButtons(page).evaluateAll((bs) =>
      bs.map((b) => ({ label: b.getAttribute('aria-label')!, background: (b as HTMLElement).style.background })),
    );
    const labels = buttons.map((b) => b.label);
    expect(new Set(labels).size).toBe(labels.length);
    expect(labels).not.toContain('colored circle');
    // The target's colour as the page computes it, to find its button.
    const target = await page.evaluate((color) => {
      const probeEl = document.createElement('i');
      probeEl.style.background = color;
      return probeEl.style.background;
    }, probe.target_color);
    const index = buttons.findIndex((b) => b.background === target);
    expect(index).toBeGreaterThanOrEqual(0);
    expect(probe.instruction).toContain(labels[index]!.split(' ')[0]);
    return probeButtons(page).nth(index);
  }

  it('by mouse: arms at the trigger cell, completes the tap, and the retraced maze gets a token', async () => {
    const page = await live.browser.context.newPage();
    const c = await openSameOrigin(page, live.server.url, { siteKey: 'cerno-site', sessionId: 'cerno-probe-mouse' });
    expect(c.challenge_type).toBe('maze_stroop');
    const cells = await solutionOf(c);
    const at = triggerIndex(c, cells);
    const arm = nextExchange(page, '/probe/arm');
    await drag(page, c, cells.slice(0, at + 1));
    expect((await arm).answer).toMatchObject({ success: true });
    const target = await shownProbe(page, c);
    await page.waitForTimeout(300);
    const complete = nextExchange(page, '/probe/complete');
    await target.click();
    expect((await complete).answer).toMatchObject({ success: true });
    await expect.poll(() => probeButtons(page).count()).toBe(0);
    // The probe ended its drag: it traces again from the start.
    const verify = nextExchange(page, '/verify');
    await drag(page, c, cells);
    const v = await verify;
    expect(v.body.probe_completion_tokens).toHaveLength(1);
    expect(v.answer).toMatchObject({ success: true });
    expect(await siteverify(live.server.url, v.answer.token as string, 'cerno-probe-mouse')).toMatchObject({ success: true });
    await page.close();
  });

  it('by keyboard alone: arms from keydowns that never touch the start cell, and gets a token', async () => {
    const page = await live.browser.context.newPage();
    const c = await openSameOrigin(page, live.server.url, { siteKey: 'cerno-site', sessionId: 'cerno-probe-keys' });
    const cells = await solutionOf(c);
    const at = triggerIndex(c, cells);
    const arm = nextExchange(page, '/probe/arm');
    await keyAlong(page, cells.slice(0, at + 1), false);
    const armed = await arm;
    expect(keyCell(c, (armed.body.events as RawEvent[])[0]!)).toEqual(cells[1]);
    expect(armed.answer).toMatchObject({ success: true });
    const target = await shownProbe(page, c);
    await page.waitForTimeout(300);
    const complete = nextExchange(page, '/probe/complete');
    await target.press('Enter');
    expect((await complete).answer).toMatchObject({ success: true });
    await expect.poll(() => probeButtons(page).count()).toBe(0);
    // The keyboard cursor stayed on the trigger cell: the arrows carry on from there.
    const verify = nextExchange(page, '/verify');
    await keyAlong(page, cells.slice(at), false);
    const v = await verify;
    expect(v.answer).toMatchObject({ success: true });
    expect(await siteverify(live.server.url, v.answer.token as string, 'cerno-probe-keys')).toMatchObject({
      success: true,
      input_type: 'keyboard',
    });
    await page.close();
  });
});

describe.skipIf(!findChromium())('the deployed widget and an expiring challenge', { timeout: 60_000 }, () => {
  const live = withAriadneAndChromium({ env: { CHALLENGE_TTL_MS: '3000' } });

  it('reads expires_at as milliseconds: replaces the challenge when it expires and calls onExpire', async () => {
    const page = await live.browser.context.newPage();
    const c = await openSameOrigin(page, live.server.url, { siteKey: 'cerno-site', sessionId: 'cerno-expiry' });
    expect(c.expires_at - c.created_at).toBe(3_000);
    const c2 = await nextChallenge(page, 10_000);
    expect(c2.id).not.toBe(c.id);
    expect(Date.now()).toBeGreaterThanOrEqual(c.expires_at - 50);
    expect((await cernoCallbacks(page)).expired).toBe(1);
    await page.close();
  });
});

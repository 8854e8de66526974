// Reading a challenge off the wire and tracing its solution like a person would: with the
// mouse, a finger (CDP touch events) or the keyboard.
import type { CDPSession, Page, Response } from 'playwright-core';
import { expect } from 'vitest';
import type { Challenge } from '../../../src/client/api.js';
import { loadKernel } from '../../../src/kernel/index.js';
import type { Cell, Kernel } from '../../../src/kernel/types.js';

let kernel: Promise<Kernel> | undefined;

export const isChallengeResponse = (r: Response): boolean =>
  r.request().method() === 'POST' && new URL(r.url()).pathname.endsWith('/challenge');

/** The next challenge the page receives (start waiting before the action that fetches it). */
export function nextChallenge(page: Page, timeout = 15_000): Promise<Challenge> {
  return page.waitForResponse(isChallengeResponse, { timeout }).then((r) => r.json() as Promise<Challenge>);
}

/**
 * Runs `trigger` (a navigation, a click: whatever makes the widget fetch a challenge) and
 * resolves with that challenge once the widget shows it and asks for a trace.
 */
export async function readyChallenge(page: Page, trigger: () => Promise<unknown>): Promise<Challenge> {
  const challenge = nextChallenge(page);
  await trigger();
  const c = await challenge;
  await expect.poll(() => statusText(page)).toContain('Trace a path');
  return c;
}

export async function solutionOf(c: Challenge): Promise<Cell[]> {
  const k = await (kernel ??= loadKernel());
  return k.generateMaze({ seed: c.maze_seed, width: c.maze_width, height: c.maze_height, difficulty: c.maze_difficulty }).solution;
}

/** The maze canvas of Ariadne's widget; the deployed widget's tests name theirs. */
export const ARIADNE_CANVAS = 'ariadne-maze canvas';

/** Page coordinates of a cell centre (kernel.md geometry, scaled to the drawn canvas). */
export async function cellPoint(
  page: Page,
  c: Challenge,
  cell: Cell,
  jitter = 0,
  canvas = ARIADNE_CANVAS,
): Promise<{ x: number; y: number }> {
  const box = await page.locator(canvas).boundingBox();
  if (!box) throw new Error('maze canvas not visible');
  const w = c.maze_width * c.cell_size + 40;
  const h = c.maze_height * c.cell_size + 64;
  const jx = (Math.random() - 0.5) * jitter * c.cell_size;
  const jy = (Math.random() - 0.5) * jitter * c.cell_size;
  return {
    x: box.x + ((20 + (cell.x + 0.5) * c.cell_size + jx) * box.width) / w,
    y: box.y + ((20 + (cell.y + 0.5) * c.cell_size + jy) * box.height) / h,
  };
}

/** Points from cell centre to cell centre with a few steps in between, slightly wobbly. */
async function strokePoints(
  page: Page,
  c: Challenge,
  cells: readonly Cell[],
  canvas = ARIADNE_CANVAS,
): Promise<{ x: number; y: number }[]> {
  const points = [await cellPoint(page, c, cells[0]!, 0, canvas)];
  for (let i = 1; i < cells.length; i++) {
    const a = points[points.length - 1]!;
    const b = await cellPoint(page, c, cells[i]!, 0.25, canvas);
    for (const f of [0.35, 0.7, 1]) points.push({ x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f });
  }
  return points;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** The deployed widget's collector keeps moves >= 33 ms apart; stay above that. */
const stepMs = () => 36 + Math.random() * 14;

export async function dragAlong(page: Page, c: Challenge, cells: readonly Cell[], canvas = ARIADNE_CANVAS): Promise<void> {
  const points = await strokePoints(page, c, cells, canvas);
  await page.mouse.move(points[0]!.x, points[0]!.y);
  await page.mouse.down();
  for (const p of points.slice(1)) {
    await pause(stepMs());
    await page.mouse.move(p.x, p.y);
  }
  await pause(stepMs());
  await page.mouse.up();
}

export async function touchAlong(cdp: CDPSession, page: Page, c: Challenge, cells: readonly Cell[]): Promise<void> {
  const points = await strokePoints(page, c, cells);
  const at = (p: { x: number; y: number }) => [{ x: p.x, y: p.y, radiusX: 4, radiusY: 4, force: 0.6, id: 1 }];
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(points[0]!) });
  for (const p of points.slice(1)) {
    await pause(stepMs());
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(p) });
  }
  await pause(stepMs());
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}

export function arrowKey(from: Cell, to: Cell): string {
  if (to.x > from.x) return 'ArrowRight';
  if (to.x < from.x) return 'ArrowLeft';
  return to.y > from.y ? 'ArrowDown' : 'ArrowUp';
}

/** Keyboard: Enter on S, then one arrow press per corridor step. */
export async function keyAlong(page: Page, cells: readonly Cell[], start = true): Promise<void> {
  if (start) await page.keyboard.press('Enter');
  for (let i = 1; i < cells.length; i++) {
    await pause(stepMs());
    await page.keyboard.press(arrowKey(cells[i - 1]!, cells[i]!), { delay: 20 + Math.random() * 30 });
  }
}

/** Resolves with the token once the widget reports verified, or rejects with its error code. */
export function widgetOutcome(page: Page, timeout = 20_000): Promise<string> {
  return page.evaluate(
    (ms) =>
      new Promise<string>((resolve, reject) => {
        const el = document.querySelector('ariadne-maze') as (HTMLElement & { token: string }) | null;
        if (!el) return reject(new Error('no ariadne-maze'));
        if (el.token) return resolve(el.token);
        const timer = setTimeout(() => reject(new Error('no outcome in time')), ms);
        el.addEventListener('ariadne-verified', (e) => (clearTimeout(timer), resolve((e as CustomEvent<{ token: string }>).detail.token)));
        el.addEventListener(
          'ariadne-error',
          (e) => (clearTimeout(timer), reject(new Error((e as CustomEvent<{ code: string }>).detail.code))),
        );
      }),
    timeout,
  );
}

/**
 * Navigates to `url` and resolves with the first token the widget reports, or rejects with its
 * first error code. The outcome is recorded from the page's first script on: a widget that settles
 * while the page loads (a test site key, a refused hostname) can settle before a listener added
 * after the navigation is in place, and that listener would wait for an event already gone.
 */
export async function outcomeOfLoad(page: Page, url: string, timeout = 20_000): Promise<string> {
  await page.addInitScript(() => {
    const w = window as unknown as { ariadneOutcome?: { token?: string; code?: string } };
    addEventListener('ariadne-verified', (e) => (w.ariadneOutcome ??= { token: (e as CustomEvent<{ token: string }>).detail.token }));
    addEventListener('ariadne-error', (e) => (w.ariadneOutcome ??= { code: (e as CustomEvent<{ code: string }>).detail.code }));
  });
  await page.goto(url);
  const recorded = await page.waitForFunction(() => (window as unknown as { ariadneOutcome?: object }).ariadneOutcome, undefined, {
    timeout,
  });
  const outcome = (await recorded.jsonValue()) as { token?: string; code?: string };
  if (outcome.code !== undefined) throw new Error(outcome.code);
  return outcome.token!;
}

/** Presses Tab until the widget's element matching `selector` (in its shadow root) has the focus, at most 6 times: keyboard alone. */
export async function tabTo(page: Page, selector: string): Promise<void> {
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press('Tab');
    const there = await page.evaluate(
      (sel) => document.querySelector('ariadne-maze')?.shadowRoot?.activeElement?.matches(sel) === true,
      selector,
    );
    if (there) return;
  }
  throw new Error(`Tab never reached the widget's ${selector}`);
}

/** Resolves with the code of the next error the widget reports. */
export function nextWidgetError(page: Page): Promise<string> {
  return page.evaluate(
    () =>
      new Promise<string>((resolve) =>
        document
          .querySelector('ariadne-maze')!
          .addEventListener('ariadne-error', (e) => resolve((e as CustomEvent<{ code: string }>).detail.code)),
      ),
  );
}

/** Redeems a token over /siteverify, as a site's backend would (with its secret, on a server with a sites file). */
export async function siteverify(baseUrl: string, token: string, sessionId: string, secret?: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${baseUrl}/siteverify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token, session_id: sessionId, ...(secret === undefined ? {} : { secret }) }),
  });
  return (await res.json()) as Record<string, unknown>;
}

export async function widgetSession(page: Page): Promise<string> {
  return page.locator('ariadne-maze input[name="ariadne-session"]').inputValue();
}

export async function statusText(page: Page): Promise<string> {
  return (await page.locator('ariadne-maze .status').textContent()) ?? '';
}

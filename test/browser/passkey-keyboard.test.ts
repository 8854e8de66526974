// A keyboard person with a returning passkey during a surge, in Chromium with the CDP virtual
// authenticator, against the real server and a sites file whose site is in a surge (pinned), trusts
// a Privacy Pass issuer and opens the passkey door: Privacy Pass is asked first; when the browser
// gives no token the status line (what a screen reader reads) names the passkey first; the maze
// walked by keyboard alone is confirmed by the passkey at E, and the token says `passkey`.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestIssuer, testIssuer } from '../helpers/privacyPassIssuer.js';
import { axeViolations } from './helpers/axe.js';
import { findChromium } from './helpers/browser.js';
import {
  dragAlong,
  keyAlong,
  readyChallenge,
  siteverify,
  solutionOf,
  statusText,
  tabTo,
  widgetOutcome,
  widgetSession,
} from './helpers/maze.js';
import { withAriadneAndChromium } from './helpers/withAriadneAndChromium.js';
import { addPlatformAuthenticator } from './helpers/platformAuthenticator.js';

const SECRET = 'passkey-keyboard-secret-0123456789ab';
const dir = mkdtempSync(path.join(tmpdir(), 'ariadne-passkey-keyboard-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Passkey in a surge</title></head><body>
<main><div id="slot"></div></main>
<script type="module">
  import { render, registerPasskey } from '/ariadne.mjs';
  window.register = () => registerPasskey({ siteKey: 'busy', stableId: 'user-9' });
  window.show = () => (document.querySelector('#slot').replaceChildren(), render('#slot', { siteKey: 'busy', stableId: 'user-9' }));
</script></body></html>`;

const NO_TOKEN = 'Your browser gave no Privacy Pass token.';

describe.skipIf(!findChromium())('a keyboard person with a passkey in a surge, in Chromium', { timeout: 120_000 }, () => {
  let issuer: TestIssuer;
  beforeAll(async () => {
    issuer = await testIssuer('issuer.example');
  });
  const live = withAriadneAndChromium({
    env: (port) => {
      const sitesFile = path.join(dir, 'sites.json');
      const passkeys = { mode: 'preferred', rp_id: 'localhost', origins: [`http://localhost:${port}`], without_maze: { per_hour: 6 } };
      const policy = {
        passkeys,
        keyboard: { door: 'surge' },
        privacy_pass: { issuers: [{ name: issuer.name, token_key: issuer.tokenKey }] },
      };
      writeFileSync(sitesFile, JSON.stringify({ sites: { busy: { hostnames: ['localhost'], secret: SECRET, policy } } }));
      return {
        SITES_FILE: sitesFile,
        DATA_DIR: dir,
        WEBAUTHN_MODE: 'preferred',
        WEBAUTHN_RP_ID: 'localhost',
        WEBAUTHN_ORIGIN: `http://localhost:${port}`,
      };
    },
  });

  const redeem = (token: string, session: string) => siteverify(live.server.url, token, session, SECRET);
  const show = (page: Page) => readyChallenge(page, () => page.evaluate(() => (window as unknown as { show(): void }).show()));

  it('offers the passkey first, and a maze walked by keyboard alone passes with it at the usual check', async () => {
    const page = await live.browser.context.newPage();
    await page.route(`${live.server.url}/test/busy.html`, (route) => route.fulfill({ body: PAGE, contentType: 'text/html' }));
    await addPlatformAuthenticator(page);
    await page.goto(`${live.server.url}/test/busy.html`);
    await page.waitForFunction(() => typeof (window as unknown as { show?: unknown }).show === 'function');
    const privacyPassAsked: number[] = [];
    page.on('response', (r) => {
      if (r.url().includes('/privacy-pass?')) privacyPassAsked.push(r.status());
    });

    // No passkey yet: Privacy Pass asked first, then the maze with the surge said; a pointer solve as ever.
    const first = await show(page);
    expect(first).toMatchObject({ keyboard_door: 'surge', privacy_pass: true });
    expect(first.passkey_door).toBeUndefined();
    expect(privacyPassAsked).toEqual([401]);
    expect(await statusText(page)).toMatch(new RegExp(`^${NO_TOKEN} Trace a path .* Automated traffic is using the keyboard path`));
    const solved = widgetOutcome(page);
    await dragAlong(page, first, await solutionOf(first));
    expect(await redeem(await solved, await widgetSession(page))).toMatchObject({ success: true, method: 'pointer' });
    expect(await page.evaluate(() => (window as unknown as { register(): Promise<unknown> }).register())).toMatchObject({ success: true });

    // A later visit, still in the surge: every door announced, the passkey said first.
    const second = await show(page);
    expect(second).toMatchObject({ keyboard_door: 'surge', privacy_pass: true, passkey_door: true });
    expect(privacyPassAsked).toEqual([401, 401]);
    expect(await statusText(page)).toBe(
      `${NO_TOKEN} Use your passkey with the button below the puzzle to skip the puzzle. Trace a path from S to E otherwise (keyboard: press Enter, then the arrow keys): keyboard solving is checked more strictly right now, unless you confirm with your passkey when you reach E.`,
    );
    expect(await page.locator('ariadne-maze .door').isVisible()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);

    // By keyboard alone: Tab to the maze, walk it; at E the passkey confirms the solve.
    const sent: Record<string, unknown>[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/verify')) sent.push(r.postDataJSON() as Record<string, unknown>);
    });
    await tabTo(page, 'canvas');
    const outcome = widgetOutcome(page, 60_000);
    await keyAlong(page, await solutionOf(second));
    const token = await outcome;
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ input_type: 'keyboard', stable_id: 'user-9', webauthn: expect.any(Object) });
    expect(await statusText(page)).toBe('Verified. You can continue.');
    expect(await axeViolations(page)).toEqual([]);
    expect(await redeem(token, await widgetSession(page))).toMatchObject({
      success: true,
      challenge_id: second.id,
      input_type: 'keyboard',
      method: 'passkey',
    });
    await page.close();
  });
});

// The passkey door in Chromium with the CDP virtual authenticator, against the real server and a
// sites file that opens it (2 passes per passkey and hour): a passkey registered after an
// accepted solve, a later pass without a maze by keyboard alone, a cloned authenticator's stale
// counter refused, and the per-passkey rate's refusal. axe-core checks the door's states.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CDPSession, Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { axeViolations } from './helpers/axe.js';
import { findChromium } from './helpers/browser.js';
import {
  dragAlong,
  nextWidgetError,
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
import { HOUR_MS, clearOfTurn } from '../helpers/clockWindows.js';

const SECRET = 'passkey-door-secret-0123456789abcdef';
const dir = mkdtempSync(path.join(tmpdir(), 'ariadne-passkey-door-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Passkey door</title></head><body>
<main><div id="slot"></div></main>
<script type="module">
  import { render, registerPasskey } from '/ariadne.mjs';
  window.register = () => registerPasskey({ siteKey: 'door', stableId: 'user-7' });
  // One widget at a time: each call replaces the last.
  window.show = () => (document.querySelector('#slot').replaceChildren(), render('#slot', { siteKey: 'door', stableId: 'user-7' }));
</script></body></html>`;

describe.skipIf(!findChromium())('the passkey door in Chromium', { timeout: 120_000 }, () => {
  const live = withAriadneAndChromium({
    env: (port) => {
      const sitesFile = path.join(dir, 'sites.json');
      const passkeys = { mode: 'preferred', rp_id: 'localhost', origins: [`http://localhost:${port}`], without_maze: { per_hour: 2 } };
      writeFileSync(sitesFile, JSON.stringify({ sites: { door: { hostnames: ['localhost'], secret: SECRET, policy: { passkeys } } } }));
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

  async function openPage(): Promise<{ page: Page; cdp: CDPSession; authenticatorId: string }> {
    const page = await live.browser.context.newPage();
    await page.route(`${live.server.url}/test/door.html`, (route) => route.fulfill({ body: PAGE, contentType: 'text/html' }));
    const { cdp, authenticatorId } = await addPlatformAuthenticator(page);
    await page.goto(`${live.server.url}/test/door.html`);
    await page.waitForFunction(() => typeof (window as unknown as { show?: unknown }).show === 'function');
    return { page, cdp, authenticatorId };
  }

  const show = (page: Page) => readyChallenge(page, () => page.evaluate(() => (window as unknown as { show(): void }).show()));
  const doorShown = (page: Page) => page.locator('ariadne-maze .door').isVisible();

  it('registers after an accepted solve, then passes without a maze by keyboard alone, refuses a clone, and holds the per-passkey rate', async () => {
    // The rate's window is the clock's hour: do not start right before it turns.
    await clearOfTurn(HOUR_MS, 30_000);
    const { page, cdp, authenticatorId } = await openPage();

    // No passkey yet: the maze, and no door.
    const first = await show(page);
    expect(first.passkey_door).toBeUndefined();
    expect(await doorShown(page)).toBe(false);
    const solved = widgetOutcome(page);
    await dragAlong(page, first, await solutionOf(first));
    expect(await redeem(await solved, await widgetSession(page))).toMatchObject({ success: true, challenge_id: first.id });
    // The accepted solve: the site registers a passkey for its user.
    expect(await page.evaluate(() => (window as unknown as { register(): Promise<unknown> }).register())).toMatchObject({ success: true });

    // A later visit: the door is offered; Tab and Enter pass without a maze.
    const second = await show(page);
    expect(second.passkey_door).toBe(true);
    expect(await doorShown(page)).toBe(true);
    expect(await page.locator('ariadne-maze .door').textContent()).toBe('Use my passkey instead of the puzzle');
    // Said in the status a screen reader reads, not only shown.
    expect(await statusText(page)).toBe(
      'Trace a path from S to E (keyboard: press Enter, then the arrow keys), or use your passkey instead with the button below the puzzle.',
    );
    expect(await axeViolations(page)).toEqual([]);
    const verifyCalls: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/verify')) verifyCalls.push(r.url());
    });
    let outcome = widgetOutcome(page);
    await tabTo(page, '.door');
    await page.keyboard.press('Enter');
    const token = await outcome;
    expect(verifyCalls).toEqual([]);
    expect(await statusText(page)).toBe('Verified by your passkey, without a puzzle. You can continue.');
    expect(await page.locator('ariadne-maze .stage').isHidden()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    expect(await redeem(token, await widgetSession(page))).toMatchObject({ success: true, score: 1, challenge_id: second.id });
    expect(JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).method).toBe('passkey');

    // A clone: the same key with the counter it had before the last pass.
    const [credential] = (await cdp.send('WebAuthn.getCredentials', { authenticatorId })).credentials;
    await cdp.send('WebAuthn.removeCredential', { authenticatorId, credentialId: credential!.credentialId });
    await cdp.send('WebAuthn.addCredential', { authenticatorId, credential: { ...credential!, signCount: credential!.signCount - 1 } });
    await show(page);
    let refused = nextWidgetError(page);
    await tabTo(page, '.door');
    await page.keyboard.press('Enter');
    expect(await refused).toBe('webauthn_failed');
    // The genuine authenticator again (its counter ahead): the second pass of the hour.
    await cdp.send('WebAuthn.removeCredential', { authenticatorId, credentialId: credential!.credentialId });
    await cdp.send('WebAuthn.addCredential', { authenticatorId, credential: { ...credential!, signCount: credential!.signCount + 10 } });
    await show(page);
    outcome = widgetOutcome(page);
    await tabTo(page, '.door');
    await page.keyboard.press('Enter');
    expect(await redeem(await outcome, await widgetSession(page))).toMatchObject({ success: true });

    // The third within the hour is over the site's rate of 2: refused.
    const fourth = await show(page);
    refused = nextWidgetError(page);
    await tabTo(page, '.door');
    await page.keyboard.press('Enter');
    expect(await refused).toBe('passkey_rate_exceeded');
    expect(fourth.passkey_door).toBe(true);
    await page.close();
  });
});

// The Privacy Pass door in real Chromium against the real server (PRIVACY_PASS_ISSUERS set): a
// browser that does not answer the PrivateToken challenge gets the maze at once; one that answers
// (here the test, with a test issuer built on @cloudflare/privacypass-ts, through request
// interception, as Safari's own token fetch would) passes without a maze. axe-core checks both states.
import { beforeAll, describe, expect, it } from 'vitest';
import { type TestIssuer, testIssuer } from '../helpers/privacyPassIssuer.js';
import { axeViolations } from './helpers/axe.js';
import { findChromium } from './helpers/browser.js';
import { dragAlong, readyChallenge, siteverify, solutionOf, statusText, widgetOutcome, widgetSession } from './helpers/maze.js';
import { withAriadneAndChromium } from './helpers/withAriadneAndChromium.js';

describe.skipIf(!findChromium())('the Privacy Pass door in Chromium', { timeout: 90_000 }, () => {
  let issuer: TestIssuer;
  beforeAll(async () => {
    issuer = await testIssuer('issuer.example');
  });
  const live = withAriadneAndChromium({ env: () => ({ PRIVACY_PASS_ISSUERS: issuer.entry }) });

  it('falls back to the maze at once when the PrivateToken challenge is not answered', async () => {
    const page = await live.browser.context.newPage();
    const asked = page.waitForResponse((r) => r.url().includes('/privacy-pass?'));
    const c = await readyChallenge(page, () => page.goto(live.server.url));
    expect(c.privacy_pass).toBe(true);
    const answer = await asked;
    expect(answer.status()).toBe(401);
    expect(answer.headers()['www-authenticate']).toMatch(/^PrivateToken challenge=/);
    expect(await statusText(page)).toBe(
      'Your browser gave no Privacy Pass token. Trace a path from S to E. Keyboard: press Enter, then use the arrow keys.',
    );
    expect(await axeViolations(page)).toEqual([]);
    const outcome = widgetOutcome(page);
    await dragAlong(page, c, await solutionOf(c));
    const token = await outcome;
    expect(await siteverify(live.server.url, token, await widgetSession(page))).toMatchObject({ success: true, challenge_id: c.id });
    await page.close();
  });

  it('passes without a maze when the browser answers with a token', async () => {
    const page = await live.browser.context.newPage();
    let answered = 0;
    // What a browser holding tokens does: on the 401, fetch a token for the challenge and retry with it.
    await page.route('**/privacy-pass?*', async (route) => {
      const first = await route.fetch();
      const auth = await issuer.answer([first.headers()['www-authenticate'] ?? '']);
      if (auth === undefined) return route.fulfill({ response: first });
      answered++;
      return route.fulfill({ response: await route.fetch({ headers: { ...route.request().headers(), authorization: auth } }) });
    });
    const verifyCalls: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/verify')) verifyCalls.push(r.url());
    });
    await page.goto(live.server.url);
    const token = await widgetOutcome(page);
    expect(answered).toBe(1);
    expect(verifyCalls).toEqual([]);
    expect(await statusText(page)).toBe('Verified by a Privacy Pass token from your device, without a puzzle. You can continue.');
    expect(await page.locator('ariadne-maze .stage').isHidden()).toBe(true);
    expect(await page.locator('input[name="ariadne-response"]').inputValue()).toBe(token);
    expect(await axeViolations(page)).toEqual([]);
    const redeemed = await siteverify(live.server.url, token, await widgetSession(page));
    expect(redeemed).toMatchObject({ success: true, score: 1 });
    expect(JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).method).toBe('privacy_pass');
    await page.close();
  });
});

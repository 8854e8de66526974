// The compatible scripts as sites already use reCAPTCHA, hCaptcha and Turnstile: a
// `<div class="g-recaptcha|h-captcha|cf-turnstile" data-sitekey data-callback...>` in a plain
// form, the script tag pointed at Ariadne, the maze solved in real Chromium, the form posted
// and the field the service's backends read redeemed by the site's backend. Then the invisible
// modes: a bound submit button, and execute() with its dialog (Escape, focus, promise).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findChromium } from './helpers/browser.js';
import {
  type CompatSite,
  DUPLICATE_CODE,
  RECORDING_SCRIPT,
  RESPONSE_FIELD,
  SCRIPT_PATH,
  type Service,
  compatSitesFile,
  recordedCalls,
  redeemCompat,
  startCompatSite,
  watchConsole,
} from './helpers/compatSite.js';
import { dragAlong, keyAlong, nextChallenge, readyChallenge, solutionOf, statusText } from './helpers/maze.js';
import { repoRoot } from './helpers/server.js';
import { withAriadneAndChromium } from './helpers/withAriadneAndChromium.js';
import type { Page } from 'playwright-core';

const artifacts = path.join(repoRoot, 'test-artifacts');
const CLASS: Record<Service, string> = { recaptcha: 'g-recaptcha', hcaptcha: 'h-captcha', turnstile: 'cf-turnstile' };
const GLOBAL: Record<Service, string> = { recaptcha: 'grecaptcha', hcaptcha: 'hcaptcha', turnstile: 'turnstile' };

const html = (
  title: string,
  head: string,
  body: string,
) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<script src="/site.js"></script>${head}</head><body>${body}</body></html>`;

/** A sign-up form with the service's implicit widget, as that service's docs show it. */
const formPage = (service: Service, scriptUrl: string, widget: string) =>
  html(
    `${service} form`,
    `<script src="${scriptUrl}" async defer></script>`,
    `<form id="f" action="/submit" method="post"><label>Email <input name="email" value="ada@example.com"></label>
${widget}<button id="send" type="submit">Sign up</button></form>`,
  );

const token = async (page: Page, callback = 'solved'): Promise<string> => {
  await expect.poll(async () => (await recordedCalls(page)).some((c) => c[0] === callback), { timeout: 20_000 }).toBe(true);
  return (await recordedCalls(page)).find((c) => c[0] === callback)![1]!;
};

/** The element focused inside the open shadow roots (the dialog's host, then the maze's). */
const deepFocus = (page: Page) =>
  page.evaluate(() => {
    let el: Element | null = document.activeElement;
    while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
    return el ? el.tagName : null;
  });

describe.skipIf(!findChromium())('the compatible scripts in a plain form, in Chromium', { timeout: 90_000 }, () => {
  const live = withAriadneAndChromium({
    env: { SITES_FILE: compatSitesFile(['compat-recaptcha', 'compat-hcaptcha', 'compat-turnstile']) },
  });
  const siteFor = (service: Service, page: string): Promise<CompatSite> =>
    startCompatSite(
      live.server.url,
      { '/': { body: page, type: 'text/html; charset=utf-8' }, '/site.js': { body: RECORDING_SCRIPT, type: 'text/javascript' } },
      (fields) => redeemCompat(live.server.url, service, `compat-${service}`, fields[RESPONSE_FIELD[service]] ?? ''),
    );

  it.each<Service>(['recaptcha', 'hcaptcha', 'turnstile'])(
    'the implicit .%s widget: solved, posted with the form, redeemed once; no console error under the strict policy',
    async (service) => {
      // Query parameters the scripts ignore are accepted alongside the ones they honour.
      const script = `${live.server.url}${SCRIPT_PATH[service]}?onload=loaded&hl=fr&unknown=1`;
      // Turnstile's data-action is carried by the token to its siteverify answer.
      const action = service === 'turnstile' ? ' data-action="login"' : '';
      const widget = `<div class="${CLASS[service]}" data-sitekey="compat-${service}" data-callback="solved" data-expired-callback="expired" data-error-callback="failed" data-theme="dark" data-tabindex="3"${action}></div>`;
      const site = await siteFor(service, formPage(service, script, widget));
      const page = await live.browser.context.newPage();
      const problems = watchConsole(page);
      const c = await readyChallenge(page, () => page.goto(`${site.url}/`));
      expect(c.site_key).toBe(`compat-${service}`);
      expect(await recordedCalls(page)).toContainEqual(['loaded']);
      await dragAlong(page, c, await solutionOf(c));
      const t = await token(page);
      expect(t).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
      const field = RESPONSE_FIELD[service];
      expect(await page.locator(`#f [name="${field}"]`).inputValue()).toBe(t);
      if (service === 'hcaptcha') expect(await page.locator('#f [name="g-recaptcha-response"]').inputValue()).toBe(t);
      expect(
        await page.evaluate((g) => (window as unknown as Record<string, { getResponse(): string }>)[g]!.getResponse(), GLOBAL[service]),
      ).toBe(t);
      // data-tabindex places the maze in the tab order.
      expect(await page.locator('ariadne-maze canvas').getAttribute('tabindex')).toBe('3');
      // The form carries the service's field only: no session id for the page to handle.
      expect(await page.locator('#f [name^="ariadne-"]').count()).toBe(0);

      const [answer] = await Promise.all([page.waitForNavigation(), page.click('#send')]);
      expect(answer?.status()).toBe(200);
      const redeemed = JSON.parse(await page.locator('body').innerText());
      expect(redeemed).toMatchObject({ success: true, hostname: '127.0.0.1', 'error-codes': [] });
      if (service === 'turnstile') expect(redeemed.action).toBe('login');
      // reCAPTCHA's implicit widget is v2's: answered as v2 answers, without score or action.
      if (service === 'recaptcha') expect(Object.keys(redeemed).filter((k) => k === 'score' || k === 'action')).toEqual([]);
      expect(site.posts[0]!.fields).toMatchObject({ email: 'ada@example.com', [field]: t });
      // Replayed: the service's own code for a duplicate.
      expect(await redeemCompat(live.server.url, service, `compat-${service}`, t)).toMatchObject({
        success: false,
        'error-codes': [DUPLICATE_CODE[service]],
      });
      expect(problems).toEqual([]);
      await page.close();
      await site.close();
    },
  );

  it('hCaptcha with recaptchacompat=off: no window.grecaptcha and only the h-captcha-response field; /1/secure-api.js is the same script', async () => {
    const widget = '<div class="h-captcha" data-sitekey="compat-hcaptcha"></div>';
    const site = await siteFor('hcaptcha', formPage('hcaptcha', `${live.server.url}/1/secure-api.js?recaptchacompat=off`, widget));
    const page = await live.browser.context.newPage();
    const problems = watchConsole(page);
    await readyChallenge(page, () => page.goto(`${site.url}/`));
    expect(
      await page.evaluate(() => ({
        h: typeof (window as unknown as { hcaptcha?: unknown }).hcaptcha,
        g: typeof (window as unknown as { grecaptcha?: unknown }).grecaptcha,
      })),
    ).toEqual({
      h: 'object',
      g: 'undefined',
    });
    expect(await page.locator('#f textarea').evaluateAll((els) => els.map((e) => (e as HTMLTextAreaElement).name))).toEqual([
      'h-captcha-response',
    ]);
    expect(problems).toEqual([]);
    await page.close();
    await site.close();
  });

  it('reCAPTCHA invisible on the submit button: the click opens the maze in a dialog, the callback posts the form', async () => {
    const widget = '<button class="g-recaptcha" id="send" data-sitekey="compat-recaptcha" data-callback="submitForm">Sign up</button>';
    const page$ = html(
      'invisible',
      `<script src="${live.server.url}/recaptcha/api.js" async defer></script>`,
      `<form id="f" action="/submit" method="post"><input name="email" value="ada@example.com">${widget}</form>`,
    );
    const site = await siteFor('recaptcha', page$);
    const page = await live.browser.context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${site.url}/`);
    expect(await page.locator('ariadne-maze').count()).toBe(0);
    await page.locator('#send').focus();
    const c = await readyChallenge(page, () => page.keyboard.press('Enter'));
    const dialog = page.getByRole('dialog', { name: 'Human check' });
    expect(await dialog.isVisible()).toBe(true);
    expect(await deepFocus(page)).toBe('CANVAS');
    mkdirSync(artifacts, { recursive: true });
    await page.screenshot({ path: path.join(artifacts, 'compat-invisible-dialog.png') });
    // Keyboard alone, from where the dialog put the focus.
    const navigation = page.waitForNavigation();
    await keyAlong(page, await solutionOf(c));
    await navigation;
    const verdict = JSON.parse(await page.locator('body').innerText()) as Record<string, unknown>;
    expect(verdict).toMatchObject({ success: true, hostname: '127.0.0.1' });
    expect(c.site_key).toBe('compat-recaptcha');
    expect(site.posts[0]!.fields['g-recaptcha-response']).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(problems).toEqual([]);
    await page.close();
    await site.close();
  });

  it('hCaptcha execute({async: true}) in invisible mode: Escape closes the dialog (close-callback, rejection, focus back); a second run resolves {response, key}', async () => {
    const body = `<form id="f" action="/submit" method="post"><div id="box"></div><button id="send" type="submit">Sign up</button></form>`;
    const site = await siteFor(
      'hcaptcha',
      html('execute', `<script src="${live.server.url}/1/api.js?render=explicit&onload=loaded" async defer></script>`, body),
    );
    const page = await live.browser.context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${site.url}/`);
    await expect.poll(() => recordedCalls(page)).toContainEqual(['loaded']);
    expect(await page.locator('ariadne-maze').count()).toBe(0);
    type H = {
      render(el: string, p: object): string;
      execute(id: string, o: object): Promise<{ response: string; key: string }>;
      getResponse(id: string): string;
      getRespKey(id: string): string;
    };
    const id = await page.evaluate(() => {
      const h = (window as unknown as { hcaptcha: H }).hcaptcha;
      return h.render('box', {
        sitekey: 'compat-hcaptcha',
        size: 'invisible',
        callback: 'solved',
        'close-callback': 'dismissed',
        'open-callback': 'opened',
      });
    });
    const run = () =>
      page.evaluate(
        (widget) =>
          (window as unknown as { hcaptcha: H }).hcaptcha.execute(widget, { async: true }).then(
            (r) => ({ ok: r }),
            (e: unknown) => ({ rejected: String(e) }),
          ),
        id,
      );

    await page.locator('#send').focus();
    let outcome: ReturnType<typeof run> | undefined;
    await readyChallenge(page, async () => {
      outcome = run();
    });
    expect(await page.getByRole('dialog', { name: 'Human check' }).isVisible()).toBe(true);
    expect(await deepFocus(page)).toBe('CANVAS');
    await page.keyboard.press('Escape');
    expect(await outcome).toEqual({ rejected: 'challenge-closed' });
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('send');
    expect((await recordedCalls(page)).map((c) => c[0])).toEqual(['loaded', 'opened', 'dismissed']);

    const c = await readyChallenge(page, async () => {
      outcome = run();
    });
    await dragAlong(page, c, await solutionOf(c));
    const result = (await outcome) as { ok: { response: string; key: string } };
    expect(result.ok.response).toBe(await token(page));
    expect(result.ok.key).not.toBe('');
    expect(await page.evaluate((w) => (window as unknown as { hcaptcha: H }).hcaptcha.getRespKey(w), id)).toBe(result.ok.key);
    expect(await page.getByRole('dialog').count()).toBe(0);
    expect(await page.locator('#f [name="h-captcha-response"]').inputValue()).toBe(result.ok.response);
    expect(c.site_key).toBe('compat-hcaptcha');
    expect(await redeemCompat(live.server.url, 'hcaptcha', 'compat-hcaptcha', result.ok.response)).toMatchObject({
      success: true,
      hostname: '127.0.0.1',
    });
    expect(problems).toEqual([]);
    await page.close();
    await site.close();
  });

  it("Turnstile's explicit API: execution 'execute' with a renamed field, isExpired, reset and remove", async () => {
    const body = `<form id="f" action="/submit" method="post"><div id="box"></div><button id="send" type="submit">Sign up</button></form>`;
    const site = await siteFor(
      'turnstile',
      html('turnstile', `<script src="${live.server.url}/turnstile/v0/api.js?render=explicit&onload=loaded" async defer></script>`, body),
    );
    const page = await live.browser.context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${site.url}/`);
    await expect.poll(() => recordedCalls(page)).toContainEqual(['loaded']);
    type T = { render(el: string, p: object): string; execute(el: string): void };
    /** Calls turnstile[method](widget), or turnstile[method]() without a widget. */
    const call = (method: 'getResponse' | 'isExpired' | 'reset' | 'remove', widget?: string) =>
      page.evaluate(([m, w]) => (window as unknown as { turnstile: Record<string, (id?: string) => unknown> }).turnstile[m]!(w), [
        method,
        widget,
      ] as const);
    const id = await page.evaluate(() =>
      (window as unknown as { turnstile: T }).turnstile.render('#box', {
        sitekey: 'compat-turnstile',
        execution: 'execute',
        'response-field-name': 'captcha',
        callback: 'solved',
      }),
    );
    expect(id).toMatch(/^cf-chl-widget-/);
    expect(await page.locator('ariadne-maze').count()).toBe(0);
    const c = await readyChallenge(page, () => page.evaluate(() => (window as unknown as { turnstile: T }).turnstile.execute('#box')));
    await dragAlong(page, c, await solutionOf(c));
    const t = await token(page);
    expect(await page.locator('#f [name="captcha"]').inputValue()).toBe(t);
    expect(await page.locator('#f [name="cf-turnstile-response"]').count()).toBe(0);
    // Without an id, the calls mean the last widget rendered.
    expect([await call('getResponse', id), await call('getResponse'), await call('isExpired', id)]).toEqual([t, t, false]);
    await call('reset', id);
    expect(await call('getResponse', id)).toBe('');
    expect(await page.locator('#f [name="captcha"]').inputValue()).toBe('');
    await call('remove', id);
    expect(await page.locator('#f [name="captcha"]').count()).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
    await site.close();
  });

  it("reCAPTCHA v3's style: grecaptcha.ready, then execute(siteKey, {action}) opens the dialog and resolves with the token", async () => {
    const site = await siteFor(
      'recaptcha',
      html(
        'v3',
        `<script src="${live.server.url}/recaptcha/api.js?render=compat-recaptcha" async defer></script>`,
        '<p>No widget in the page.</p>',
      ),
    );
    const page = await live.browser.context.newPage();
    const problems = watchConsole(page);
    await page.goto(`${site.url}/`);
    await expect.poll(() => page.evaluate(() => typeof (window as unknown as { grecaptcha?: unknown }).grecaptcha)).toBe('object');
    type G = { ready(cb: () => void): void; execute(key: string, o: object): Promise<string> };
    let outcome: Promise<string> | undefined;
    const c = await readyChallenge(page, async () => {
      outcome = page.evaluate(
        () =>
          new Promise<string>((resolve, reject) => {
            const g = (window as unknown as { grecaptcha: G }).grecaptcha;
            g.ready(() => g.execute('compat-recaptcha', { action: 'signup' }).then(resolve, reject));
          }),
      );
    });
    expect(c.site_key).toBe('compat-recaptcha');
    await dragAlong(page, c, await solutionOf(c));
    const t = await outcome!;
    // The token carries its action to siteverify, which answers as v3 answers: score and action.
    expect(await redeemCompat(live.server.url, 'recaptcha', 'compat-recaptcha', t)).toMatchObject({
      success: true,
      hostname: '127.0.0.1',
      action: 'signup',
      score: expect.any(Number),
    });
    expect(problems).toEqual([]);
    await page.close();
    await site.close();
  });

  it('a token expires 55 s after solving: expired-callback with it, the field emptied, isExpired true, a fresh maze', async () => {
    const widget =
      '<div class="cf-turnstile" data-sitekey="compat-turnstile" data-callback="solved" data-expired-callback="expired"></div>';
    const site = await siteFor('turnstile', formPage('turnstile', `${live.server.url}/turnstile/v0/api.js`, widget));
    const page = await live.browser.context.newPage();
    const problems = watchConsole(page);
    // The page's clock runs as usual until fast-forwarded.
    await page.clock.install();
    const c = await readyChallenge(page, () => page.goto(`${site.url}/`));
    await dragAlong(page, c, await solutionOf(c));
    const t = await token(page);
    const isExpired = () => page.evaluate(() => (window as unknown as { turnstile: { isExpired(): boolean } }).turnstile.isExpired());
    expect(await isExpired()).toBe(false);
    const fresh = nextChallenge(page);
    await page.clock.fastForward('00:56');
    await expect.poll(() => recordedCalls(page)).toContainEqual(['expired', t]);
    expect(await isExpired()).toBe(true);
    expect(await page.locator('#f [name="cf-turnstile-response"]').inputValue()).toBe('');
    expect((await fresh).id).not.toBe(c.id);
    await expect.poll(() => statusText(page)).toContain('The verification expired');
    expect(problems).toEqual([]);
    await page.close();
    await site.close();
  });
});

// Published browser wrappers of reCAPTCHA, hCaptcha and Turnstile, unmodified from node_modules,
// pointed at Ariadne by their own options, driven in real Chromium to a verified token that a
// backend redeems at Ariadne's siteverify in that service's shape (then its duplicate code):
// - @hcaptcha/react-hcaptcha with `apihost` (its loader builds `${apihost}/1/api.js?...`),
//   visible, then invisible with its ref's execute({async: true});
// - recaptcha-v3 with `customUrl` (it loads `${customUrl}?render=explicit`, renders with
//   grecaptcha.render(params) and awaits grecaptcha.execute(id, {action})): the maze opens in
//   the dialog;
// - @marsidev/react-turnstile, whose script URL is fixed: its documented manual injection
//   (injectScript={false} and a script tag with its id) loads Ariadne's instead;
// - vue-turnstile, whose script URL is fixed and which injects it unless window.turnstile exists
//   when its module is evaluated: Ariadne's script in a blocking tag (or `defer`, which runs in
//   document order before the page's module) wins; with `async` it loses whenever it arrives
//   after the page's module, and Cloudflare's script is asked for.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { findChromium } from './helpers/browser.js';
import { bundleForBrowser } from './helpers/bundle.js';
import {
  type CompatSite,
  DUPLICATE_CODE,
  type Service,
  compatSitesFile,
  redeemCompat,
  startCompatSite,
  watchConsole,
} from './helpers/compatSite.js';
import { dragAlong, readyChallenge, solutionOf } from './helpers/maze.js';
import { withAriadneAndChromium } from './helpers/withAriadneAndChromium.js';

/** What each page's bundle records: tokens handed to its success callback, errors, closes. */
interface Record_ {
  tokens: string[];
  keys: string[];
  errors: string[];
  closed: number;
  /** react-hcaptcha's onLoad: the script is loaded and the widget rendered. */
  loaded?: boolean;
}

const RECORD =
  'const record = (window.record = { tokens: [], keys: [], errors: [], closed: 0 }); const q = new URLSearchParams(location.search);';

const HCAPTCHA = `
import { createElement, createRef } from 'react';
import { createRoot } from 'react-dom/client';
import HCaptcha from '@hcaptcha/react-hcaptcha';
${RECORD}
const ref = createRef();
window.captcha = ref;
createRoot(document.getElementById('root')).render(
  createElement(HCaptcha, {
    ref,
    sitekey: q.get('site_key'),
    apihost: q.get('apihost'),
    size: q.get('size') ?? 'normal',
    sentry: false,
    onVerify: (token, key) => (record.tokens.push(token), record.keys.push(key)),
    onError: (e) => record.errors.push(String(e)),
    onClose: () => record.closed++,
    onLoad: () => (record.loaded = true),
  }),
);
`;

const RECAPTCHA = `
import { load } from 'recaptcha-v3';
${RECORD}
document.getElementById('go').addEventListener('click', async () => {
  try {
    const recaptcha = await load(q.get('site_key'), { customUrl: q.get('script') });
    record.tokens.push(await recaptcha.execute('signup'));
  } catch (e) {
    record.errors.push(String(e));
  }
});
`;

const TURNSTILE = `
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { Turnstile } from '@marsidev/react-turnstile';
${RECORD}
createRoot(document.getElementById('root')).render(
  createElement(Turnstile, {
    siteKey: q.get('site_key'),
    injectScript: false,
    onSuccess: (token) => record.tokens.push(token),
    onError: (e) => record.errors.push(String(e)),
  }),
);
`;

const VUE_TURNSTILE = `
import { createApp, h, ref } from 'vue';
import VueTurnstile from 'vue-turnstile';
${RECORD}
const token = ref('');
createApp({
  render: () =>
    h(VueTurnstile, {
      siteKey: q.get('site_key'),
      modelValue: token.value,
      'onUpdate:modelValue': (t) => ((token.value = t), t && record.tokens.push(t)),
      onError: (e) => record.errors.push(String(e)),
    }),
}).mount('#root');
`;

const page = (head: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Wrapper</title>${head}
<script type="module" src="/app.js"></script></head><body><form id="f"><div id="root"></div><button id="go" type="button">Sign up</button></form></body></html>`;

const recorded = (p: Page): Promise<Record_> => p.evaluate(() => (window as unknown as { record: Record_ }).record);

const firstToken = async (p: Page): Promise<string> => {
  await expect.poll(async () => (await recorded(p)).tokens.length, { timeout: 20_000 }).toBe(1);
  return (await recorded(p)).tokens[0]!;
};

describe.skipIf(!findChromium())('published wrappers pointed at Ariadne, in Chromium', { timeout: 90_000 }, () => {
  const live = withAriadneAndChromium({
    env: { SITES_FILE: compatSitesFile(['wrapper-hcaptcha', 'wrapper-recaptcha', 'wrapper-turnstile']) },
  });
  /** Redeemed once in the service's shape, then refused with its duplicate code. */
  const redeemsOnce = async (service: Service, token: string) => {
    expect(await redeemCompat(live.server.url, service, `wrapper-${service}`, token)).toMatchObject({
      success: true,
      hostname: '127.0.0.1',
      'error-codes': [],
    });
    expect(await redeemCompat(live.server.url, service, `wrapper-${service}`, token)).toMatchObject({
      success: false,
      'error-codes': [DUPLICATE_CODE[service]],
    });
  };
  const siteWith = async (entry: string, head = ''): Promise<CompatSite> =>
    startCompatSite(live.server.url, {
      '/': { body: page(head), type: 'text/html; charset=utf-8' },
      '/app.js': { body: await bundleForBrowser(entry), type: 'text/javascript' },
    });

  it('@hcaptcha/react-hcaptcha with apihost: the widget is solved, onVerify gets the token and its key, the token redeems once', async () => {
    const site = await siteWith(HCAPTCHA);
    const p = await live.browser.context.newPage();
    const problems = watchConsole(p);
    const script = p.waitForRequest((r) => r.url().startsWith(`${live.server.url}/1/api.js?`));
    const c = await readyChallenge(p, () =>
      p.goto(`${site.url}/?site_key=wrapper-hcaptcha&apihost=${encodeURIComponent(live.server.url)}`),
    );
    // The loader's own query: its onload callback, render=explicit, and options it sends along.
    const query = new URL((await script).url()).searchParams;
    expect(query.get('render')).toBe('explicit');
    expect(query.get('onload')).toMatch(/\w+/);
    expect(c.site_key).toBe('wrapper-hcaptcha');
    await dragAlong(p, c, await solutionOf(c));
    const token = await firstToken(p);
    expect((await recorded(p)).keys[0]).not.toBe('');
    expect(await p.locator('#root [name="h-captcha-response"]').inputValue()).toBe(token);
    await redeemsOnce('hcaptcha', token);
    expect(problems).toEqual([]);
    await p.close();
    await site.close();
  });

  it('@hcaptcha/react-hcaptcha invisible: its ref execute({async: true}) opens the dialog and resolves {response, key}', async () => {
    const site = await siteWith(HCAPTCHA);
    const p = await live.browser.context.newPage();
    const problems = watchConsole(p);
    await p.goto(`${site.url}/?site_key=wrapper-hcaptcha&size=invisible&apihost=${encodeURIComponent(live.server.url)}`);
    await expect.poll(async () => (await recorded(p)).loaded).toBe(true);
    expect(await p.locator('ariadne-maze').count()).toBe(0);
    let outcome: Promise<{ response?: string; key?: string; error?: string }> | undefined;
    const c = await readyChallenge(p, async () => {
      outcome = p.evaluate(() => {
        const ref = (window as unknown as { captcha: { current: { execute(o: object): Promise<{ response: string; key: string }> } } })
          .captcha;
        return ref.current.execute({ async: true }).catch((e: unknown) => ({ error: String(e) }));
      });
    });
    expect(await p.getByRole('dialog', { name: 'Human check' }).isVisible()).toBe(true);
    await dragAlong(p, c, await solutionOf(c));
    const result = await outcome!;
    expect(result.error).toBeUndefined();
    expect(result.response).toBe(await firstToken(p));
    expect(result.key).not.toBe('');
    expect(c.site_key).toBe('wrapper-hcaptcha');
    await redeemsOnce('hcaptcha', result.response!);
    expect(problems).toEqual([]);
    await p.close();
    await site.close();
  });

  it('recaptcha-v3 with customUrl: execute(action) opens the maze in the dialog and resolves with the token', async () => {
    const site = await siteWith(RECAPTCHA);
    const p = await live.browser.context.newPage();
    const problems = watchConsole(p);
    await p.goto(`${site.url}/?site_key=wrapper-recaptcha&script=${encodeURIComponent(`${live.server.url}/recaptcha/api.js`)}`);
    const c = await readyChallenge(p, () => p.click('#go'));
    expect(c.site_key).toBe('wrapper-recaptcha');
    expect(await p.getByRole('dialog', { name: 'Human check' }).isVisible()).toBe(true);
    await dragAlong(p, c, await solutionOf(c));
    const token = await firstToken(p);
    expect(await p.getByRole('dialog').count()).toBe(0);
    expect(await p.evaluate(() => (window as unknown as { grecaptcha: { getResponse(): string } }).grecaptcha.getResponse())).toBe(token);
    // Its execute(id, {action}) made a v3 token: siteverify answers with its score and action.
    expect(await redeemCompat(live.server.url, 'recaptcha', 'wrapper-recaptcha', token)).toMatchObject({
      success: true,
      action: 'signup',
      score: expect.any(Number),
    });
    expect(await redeemCompat(live.server.url, 'recaptcha', 'wrapper-recaptcha', token)).toMatchObject({
      success: false,
      'error-codes': ['timeout-or-duplicate'],
    });
    expect((await recorded(p)).errors).toEqual([]);
    expect(problems).toEqual([]);
    await p.close();
    await site.close();
  });

  /**
   * Opens a Turnstile wrapper's page, solves its widget, and checks the wrapper's field holds the
   * token, which redeems once, with nothing on the console (nothing asked of Cloudflare: the page's
   * policy would have refused it there).
   */
  const solvesTurnstileWrapper = async (site: Awaited<ReturnType<typeof siteWith>>) => {
    const p = await live.browser.context.newPage();
    const problems = watchConsole(p);
    const c = await readyChallenge(p, () => p.goto(`${site.url}/?site_key=wrapper-turnstile`));
    expect(c.site_key).toBe('wrapper-turnstile');
    await dragAlong(p, c, await solutionOf(c));
    const token = await firstToken(p);
    expect(await p.locator('#root [name="cf-turnstile-response"]').inputValue()).toBe(token);
    await redeemsOnce('turnstile', token);
    expect((await recorded(p)).errors).toEqual([]);
    expect(problems).toEqual([]);
    await p.close();
    await site.close();
  };

  it("@marsidev/react-turnstile with Ariadne's script injected by the page: the widget is solved and onSuccess gets the token", async () => {
    const site = await siteWith(
      TURNSTILE,
      `<script id="cf-turnstile-script" src="${live.server.url}/turnstile/v0/api.js?render=explicit" async defer></script>`,
    );
    await solvesTurnstileWrapper(site);
  });

  /** A vue-turnstile page whose head loads Ariadne's Turnstile script with `attributes`, before the page's module. */
  const vueTurnstilePage = async (attributes: string) =>
    siteWith(VUE_TURNSTILE, `<script src="${live.server.url}/turnstile/v0/api.js?render=explicit"${attributes}></script>`);

  it.each([
    ['a blocking tag', ''],
    ['defer (run in document order, before the module)', ' defer'],
  ])(
    "vue-turnstile with Ariadne's script in %s: the widget is solved, the v-model gets the token, it redeems once",
    async (_how, attributes) => {
      const site = await vueTurnstilePage(attributes);
      await solvesTurnstileWrapper(site);
    },
  );

  it("vue-turnstile with Ariadne's script `async defer` arriving after the page's module: it asks for Cloudflare's script (what the docs warn of)", async () => {
    const site = await vueTurnstilePage(' async defer');
    const p = await live.browser.context.newPage();
    const problems = watchConsole(p);
    // Ariadne's script held back a little, as a slower network or a cold cache does.
    await p.route(`${live.server.url}/turnstile/v0/api.js*`, async (route) => {
      await new Promise((r) => setTimeout(r, 500));
      await route.continue();
    });
    await p.goto(`${site.url}/?site_key=wrapper-turnstile`);
    await expect.poll(() => problems.some((m) => m.includes('challenges.cloudflare.com')), { timeout: 10_000 }).toBe(true);
    // Ariadne's script arrives too late: the wrapper gave up on its own and renders nothing.
    await expect
      .poll(() => p.evaluate(() => typeof (window as unknown as { turnstile?: unknown }).turnstile), { timeout: 10_000 })
      .toBe('object');
    await p.waitForTimeout(1_000);
    expect(await p.locator('ariadne-maze').count()).toBe(0);
    expect((await recorded(p)).tokens).toEqual([]);
    await p.close();
    await site.close();
  });
});

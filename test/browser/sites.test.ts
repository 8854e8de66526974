// The widget against a sites file: a test site key shows its outcome without a maze, and a listed
// site works only on the pages of its hostnames.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DUMMY_TOKEN } from '../../src/core/sites/testKeys.js';
import { findChromium } from './helpers/browser.js';
import { keyAlong, nextChallenge, outcomeOfLoad, solutionOf, statusText, widgetOutcome } from './helpers/maze.js';
import { repoRoot } from './helpers/server.js';
import { withAriadneAndChromium } from './helpers/withAriadneAndChromium.js';

const dir = mkdtempSync(path.join(tmpdir(), 'ariadne-browser-sites-'));
const sitesFile = path.join(dir, 'sites.json');
writeFileSync(
  sitesFile,
  JSON.stringify({
    sites: {
      'local-site': { hostnames: ['localhost'], secret: 'browser-site-secret-0123456789abcdef', policy: { maze: { width: 5, height: 4 } } },
    },
  }),
);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const page = (siteKey: string) => `<!doctype html><html><head><meta charset="utf-8"><title>Sites</title>
<script src="/ariadne.js" defer></script></head><body>
<form><ariadne-maze site-key="${siteKey}"></ariadne-maze></form></body></html>`;

describe.skipIf(!findChromium())('sites in Chromium', { timeout: 90_000 }, () => {
  const live = withAriadneAndChromium({ env: { SITES_FILE: sitesFile } });

  async function open(siteKey: string, host = 'localhost') {
    const p = await live.browser.context.newPage();
    const url = `http://${host}:${live.server.port}/test/sites.html`;
    await p.route(url, (route) => route.fulfill({ body: page(siteKey), contentType: 'text/html' }));
    return { p, url };
  }

  const widget = (p: Awaited<ReturnType<typeof open>>['p']) =>
    p.evaluate(() => {
      const el = document.querySelector('ariadne-maze') as HTMLElement & { token: string; state: string };
      const root = el.shadowRoot!;
      return {
        state: el.state,
        token: el.token,
        test: (root.querySelector('.box') as HTMLElement).dataset.test,
        stageHidden: (root.querySelector('.stage') as HTMLElement).hidden,
      };
    });

  it('test-always-pass: verified with the dummy token, no maze shown', async () => {
    const { p, url } = await open('test-always-pass');
    expect(await outcomeOfLoad(p, url)).toBe(DUMMY_TOKEN);
    expect(await widget(p)).toEqual({ state: 'verified', token: DUMMY_TOKEN, test: 'true', stageHidden: true });
    await p.screenshot({ path: path.join(repoRoot, 'test-artifacts', 'test-key-pass.png') });
    await p.close();
  });

  it('test-always-fail: the failure, no maze shown', async () => {
    const { p, url } = await open('test-always-fail');
    await expect(outcomeOfLoad(p, url)).rejects.toThrow('behavioral_rejected');
    expect(await widget(p)).toMatchObject({ state: 'error', token: '', test: 'true', stageHidden: true });
    await p.close();
  });

  it('a listed site works on its hostname, with its own maze, and not on another', async () => {
    const { p, url } = await open('local-site');
    const challenge = nextChallenge(p);
    await p.goto(url);
    const c = await challenge;
    expect(c).toMatchObject({ maze_width: 5, maze_height: 4 });
    await expect.poll(async () => (await widget(p)).state).toBe('ready');
    await p.locator('ariadne-maze canvas').focus();
    const outcome = widgetOutcome(p);
    await keyAlong(p, await solutionOf(c));
    expect(await outcome).toMatch(/^eyJ/);
    await p.close();

    const other = await open('local-site', '127.0.0.1');
    await expect(outcomeOfLoad(other.p, other.url)).rejects.toThrow('hostname_not_allowed');
    expect(await statusText(other.p)).toBe('This check is not enabled for this website.');
    await other.p.close();
  });
});

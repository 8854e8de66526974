// A site of its own (a real HTTP server on 127.0.0.1, another origin than Ariadne's localhost)
// that uses one of the compatible scripts as a site using reCAPTCHA, hCaptcha or Turnstile
// would: its pages under a strict Content-Security-Policy, its own scripts, and a form backend
// that redeems the field the service's backends read. Also what every such test checks: no
// policy violation and no error on the console.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { type IncomingMessage, type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll } from 'vitest';

export type Service = 'recaptcha' | 'hcaptcha' | 'turnstile';

/** The hidden field each service's backends read. */
export const RESPONSE_FIELD: Record<Service, string> = {
  recaptcha: 'g-recaptcha-response',
  hcaptcha: 'h-captcha-response',
  turnstile: 'cf-turnstile-response',
};

/** The script's path on Ariadne (the one each service's loaders build). */
export const SCRIPT_PATH: Record<Service, string> = {
  recaptcha: '/recaptcha/api.js',
  hcaptcha: '/1/api.js',
  turnstile: '/turnstile/v0/api.js',
};

/** Scripts from this site and from Ariadne only; nothing inline, no eval; forms post here only. */
const sitePolicy = (ariadneUrl: string): string =>
  `default-src 'none'; script-src 'self' ${ariadneUrl} 'wasm-unsafe-eval'; worker-src blob:; connect-src ${ariadneUrl}; ` +
  `style-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'`;

/**
 * The site's script: records every callback the widget calls by name (data-callback="solved"
 * and so on) on `window.calls`; `submitForm` also posts the page's form, as sites with an
 * invisible widget on their submit button do.
 */
export const RECORDING_SCRIPT = `window.calls = [];
for (const name of ['solved', 'expired', 'failed', 'dismissed', 'opened', 'loaded']) {
  window[name] = (...args) => window.calls.push([name, ...args.map(String)]);
}
window.submitForm = (token) => {
  window.calls.push(['submitForm', String(token)]);
  document.forms[0].submit();
};`;

export interface PostedForm {
  fields: Record<string, string>;
  verdict: Record<string, unknown>;
}

export interface CompatSite {
  /** http://127.0.0.1:PORT */
  url: string;
  /** The forms posted to /submit so far. */
  posts: PostedForm[];
  close(): Promise<void>;
}

export interface SiteFile {
  body: string;
  type: string;
}

const readForm = async (req: IncomingMessage): Promise<Record<string, string>> => {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return Object.fromEntries(new URLSearchParams(text));
};

/**
 * Serves `files` by path (HTML pages with the strict policy) and POST /submit, which redeems
 * the posted form with `redeem` and answers the verdict as JSON.
 */
export async function startCompatSite(
  ariadneUrl: string,
  files: Record<string, SiteFile>,
  redeem: (fields: Record<string, string>) => Promise<Record<string, unknown>> = async () => ({ success: false }),
): Promise<CompatSite> {
  const posts: PostedForm[] = [];
  const server: Server = createServer((req, res) => {
    const { pathname } = new URL(req.url ?? '/', 'http://site');
    if (req.method === 'POST' && pathname === '/submit') {
      void readForm(req).then(async (fields) => {
        const verdict = await redeem(fields);
        posts.push({ fields, verdict });
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(verdict));
      });
      return;
    }
    const file = files[pathname];
    if (!file) return void res.writeHead(pathname === '/favicon.ico' ? 204 : 404).end();
    const headers: Record<string, string> = { 'content-type': file.type };
    if (file.type.startsWith('text/html')) headers['content-security-policy'] = sitePolicy(ariadneUrl);
    res.writeHead(200, headers).end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    posts,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Where each service's backends post the token (Ariadne's routes in that service's shape). */
const SITEVERIFY_PATH: Record<Service, string> = {
  recaptcha: '/recaptcha/api/siteverify',
  hcaptcha: '/siteverify',
  turnstile: '/turnstile/v0/siteverify',
};

/** Each service's code for a token already redeemed. */
export const DUPLICATE_CODE: Record<Service, string> = {
  recaptcha: 'timeout-or-duplicate',
  hcaptcha: 'already-seen-response',
  turnstile: 'timeout-or-duplicate',
};

/** The site key `name`'s secret in the sites file below. */
const secretOfSite = (name: string): string => `compat-browser-secret-${name}`.padEnd(40, 'x');

/**
 * A sites file listing `siteKeys` for pages on 127.0.0.1 (the test sites' host), each with its
 * own secret; removed after the test file. Returns its path, for SITES_FILE.
 */
export function compatSitesFile(siteKeys: readonly string[]): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'ariadne-compat-sites-'));
  const file = path.join(dir, 'sites.json');
  const sites = Object.fromEntries(siteKeys.map((key) => [key, { hostnames: ['127.0.0.1'], secret: secretOfSite(key) }]));
  writeFileSync(file, JSON.stringify({ sites }));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return file;
}

/**
 * Redeems a token as that service's backend would: a form post of `secret` and `response` to
 * the service's siteverify path on Ariadne.
 */
export async function redeemCompat(ariadneUrl: string, service: Service, siteKey: string, token: string): Promise<Record<string, unknown>> {
  const res = await fetch(`${ariadneUrl}${SITEVERIFY_PATH[service]}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ secret: secretOfSite(siteKey), response: token }).toString(),
  });
  return (await res.json()) as Record<string, unknown>;
}

/** Collects policy violations, console errors and uncaught page errors from now on. */
export function watchConsole(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.text().includes('Content Security Policy')) problems.push(`${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  return problems;
}

/** The callbacks the page recorded (see RECORDING_SCRIPT). */
export function recordedCalls(page: Page): Promise<string[][]> {
  return page.evaluate(() => (window as unknown as { calls: string[][] }).calls);
}

// The deployed widget (`@cernosh/react`, unmodified) on a test page: bundled with esbuild into
// memory from node_modules, rendered by React, its callbacks recorded on `window.cerno`.
import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page, Request, Response } from 'playwright-core';
import { bundleForBrowser } from './bundle.js';

/** The widget's maze canvas (its only canvas, labelled by the widget). */
export const CERNO_CANVAS = 'canvas[aria-label^="Maze puzzle"]';

/** Page settings, read from the query string by the bundle. */
export interface CernoOptions {
  siteKey: string;
  sessionId: string;
  /** The widget's `apiUrl`; absent keeps its default (`/api/captcha` on the page's origin). */
  apiUrl?: string;
  size?: 'normal' | 'compact';
}

const ENTRY = `
import { createElement } from 'react';
import { createRoot } from 'react-dom/client';
import { Cerno } from '@cernosh/react';
const q = new URLSearchParams(location.search);
const record = (window.cerno = { tokens: [], errors: [], expired: 0 });
createRoot(document.getElementById('root')).render(
  createElement(Cerno, {
    siteKey: q.get('site_key'),
    sessionId: q.get('session_id'),
    apiUrl: q.get('api') ?? undefined,
    size: q.get('size') ?? undefined,
    onVerify: (token) => record.tokens.push(token),
    onError: (error) => record.errors.push(String(error && error.message)),
    onExpire: () => record.expired++,
  }),
);
`;

const PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Deployed widget</title></head>
<body><form><div id="root"></div></form><script type="module" src="cerno.js"></script></body></html>`;

let bundle: Promise<string> | undefined;

/** The widget, React and ReactDOM in one ES module (built once per test file, never written). */
export function cernoBundle(): Promise<string> {
  bundle ??= bundleForBrowser(ENTRY);
  return bundle;
}

export function cernoQuery(o: CernoOptions): string {
  const q = new URLSearchParams({ site_key: o.siteKey, session_id: o.sessionId });
  if (o.apiUrl !== undefined) q.set('api', o.apiUrl);
  if (o.size !== undefined) q.set('size', o.size);
  return q.toString();
}

/**
 * Serves the page at `${origin}/site/` through the browser itself (page.route), so the widget's
 * default `apiUrl` reaches the server behind `origin` as a same-origin request.
 */
export async function routeCernoPage(page: Page, origin: string): Promise<string> {
  const js = await cernoBundle();
  await page.route(`${origin}/site/**`, (route) => {
    const { pathname } = new URL(route.request().url());
    if (pathname === '/site/cerno.js') return route.fulfill({ body: js, contentType: 'text/javascript' });
    return route.fulfill({ body: PAGE, contentType: 'text/html' });
  });
  return `${origin}/site/`;
}

export interface Site {
  /** http://127.0.0.1:PORT/ : another origin than the server's http://localhost:PORT. */
  url: string;
  close(): Promise<void>;
}

/** The page on a site of its own (a real HTTP server on loopback), for cross-origin use. */
export async function startCernoSite(): Promise<Site> {
  const js = await cernoBundle();
  const server: Server = createServer((req, res) => {
    if (req.url?.startsWith('/cerno.js')) res.writeHead(200, { 'content-type': 'text/javascript' }).end(js);
    else res.writeHead(200, { 'content-type': 'text/html' }).end(PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Tokens and error messages the widget handed to onVerify and onError so far. */
export function cernoCallbacks(page: Page): Promise<{ tokens: string[]; errors: string[]; expired: number }> {
  return page.evaluate(() => (window as unknown as { cerno: { tokens: string[]; errors: string[]; expired: number } }).cerno);
}

const isPost = (route: string) => (r: Request | Response) => {
  const req = 'request' in r ? r.request() : r;
  return req.method() === 'POST' && new URL(req.url()).pathname.endsWith(route);
};

export interface Exchange {
  url: string;
  body: Record<string, unknown>;
  status: number;
  answer: Record<string, unknown>;
}

/** The next POST to `route` (e.g. '/verify') the page makes: what it sent and what came back. */
export async function nextExchange(page: Page, route: string, timeout = 20_000): Promise<Exchange> {
  const res = await page.waitForResponse(isPost(route), { timeout });
  return {
    url: res.url(),
    body: res.request().postDataJSON() as Record<string, unknown>,
    status: res.status(),
    answer: (await res.json()) as Record<string, unknown>,
  };
}

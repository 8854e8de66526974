import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HttpRequest, HttpResponse, TemplatedApp } from 'uWebSockets.js';
import type { Config } from '../../config.js';
import { failure } from '../../core/errors.js';
import { checkRateLimit } from '../../core/rateLimit.js';
import { WINDOWS, summarizeTraffic, type TrafficWindow } from '../../core/traffic/summarizeTraffic.js';
import { driftOfSample } from '../../core/scoring/drift/driftOfSample.js';
import type { KeyboardDoorView } from '../../core/keyboard/KeyboardBudget.js';
import type { Store } from '../../store/Store.js';
import type { TrafficStore } from '../../store/traffic/TrafficStore.js';
import { type StaticFile, readStaticFile } from '../assets/loadClientFiles.js';
import { sendFile } from '../assets/mountAssets.js';
import { SECURITY_HEADERS } from '../assets/securityHeaders.js';
import { FORM_TYPE, mediaType } from '../mediaType.js';
import { peerAddress } from '../peerAddress.js';
import { readBody } from '../readBody.js';
import { writeReply } from '../reply.js';
import { plainFailure, rateLimitedReply } from '../route.js';
import { DashboardSessions, SESSION_PATH, sessionCookieHeader } from './dashboardSession.js';

export interface DashboardOptions {
  config: Config & { dashboardToken: string };
  /** Where login attempts are counted (the server's store). */
  store: Store;
  traffic: TrafficStore;
  now: () => number;
  /** Every site's keyboard door as this serving thread sees it, each site of the sites file included (core/keyboard/KeyboardBudget.ts). */
  keyboardDoors: () => Promise<KeyboardDoorView[]>;
  /** The built dashboard; default dist/client/dashboard of this package. */
  distDir?: string;
}

/** src/http/dashboard and dist/http/dashboard both sit three levels below the package root. */
const DEFAULT_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../dist/client/dashboard');
/** Login attempts per client address and minute: the token is guessed online at most this fast. */
export const LOGIN_ATTEMPTS_PER_MINUTE = 10;
/** A login form holds the token and little else. */
const LOGIN_BODY_LIMIT = 4 * 1024;
/** Longest `site` a data request may name (a site key is far shorter). */
const MAX_SITE_LENGTH = 256;
const PAGE_HEADERS = [...SECURITY_HEADERS, ['cache-control', 'no-store']] as const;
const UNAUTHORIZED = plainFailure(failure('unauthorized', 'log in at /dashboard first'));

/**
 * The operator dashboard, under /dashboard (only when DASHBOARD_TOKEN is set):
 * - GET /dashboard: the dashboard page with a live session, else the login form;
 * - POST /dashboard/login: the form's token (compared in constant time, LOGIN_ATTEMPTS_PER_MINUTE
 *   per address) opens a session cookie (see dashboardSession.ts) and goes back to the page;
 * - GET /dashboard/data?window=hour|day&site=KEY: the counts (core/traffic/summarizeTraffic.ts);
 * - GET /dashboard/traces.jsonl: the sampled traces, one JSON object a line;
 * - GET /dashboard/keyboard: each site's keyboard door, its rates, baseline and surge levels;
 * - GET /dashboard/drift: the sample's accepted traffic against the table's calibration people
 *   (core/scoring/drift/driftOfSample.ts), asked for by the page on demand (it reads every trace);
 * - GET /dashboard/<file>: the page's script and style sheet, under the widget's strict CSP.
 * The data routes answer 401 `unauthorized` (JSON) without a live session.
 */
export function mountDashboard(app: TemplatedApp, opts: DashboardOptions): void {
  const { config, now } = opts;
  const sessions = new DashboardSessions(config.signingSecret, config.dashboardToken);
  const files = dashboardFiles(opts.distDir ?? DEFAULT_DIST);
  const page = files.get('index.html');
  const login = files.get('login.html');
  if (page === undefined || login === undefined) {
    const missing = plainFailure(failure('not_found', 'the dashboard is not built: npm run build:client'));
    app.get(SESSION_PATH, (res) => writeReply(res, missing, []));
    return;
  }
  const denied = { ...login, body: Buffer.from(login.body.toString().replace('<p id="denied" hidden>', '<p id="denied">')) };
  const signedIn = (req: HttpRequest) => sessions.holds(req.getHeader('cookie'), now());

  app.get(SESSION_PATH, (res, req) => sendPage(res, signedIn(req) ? page : login, 200));
  for (const [name, file] of files) {
    if (!name.endsWith('.html')) app.get(`${SESSION_PATH}/${name}`, (res, req) => sendFile(res, file, req.getHeader('if-none-match')));
  }

  app.post(`${SESSION_PATH}/login`, (res, req) => {
    const address = peerAddress(res, req, config.trustProxy);
    const https = config.trustProxy > 0 && req.getHeader('x-forwarded-proto').toLowerCase() === 'https';
    const contentType = req.getHeader('content-type');
    const finish = answerOnce(res);
    readBody(res, LOGIN_BODY_LIMIT, req.getHeader('content-length'), (bytes) => {
      if (bytes === undefined) return finish(() => writeReply(res, { ...plainFailure(failure('payload_too_large')), close: true }, []));
      if (mediaType(contentType) !== FORM_TYPE)
        return finish(() => writeReply(res, plainFailure(failure('invalid_request', 'body: expected a form')), []));
      const token = new URLSearchParams(bytes.toString('utf8')).get('token') ?? '';
      checkRateLimit(opts.store, 'dashboard-login', address, LOGIN_ATTEMPTS_PER_MINUTE, now()).then(
        (limit) => {
          if (!limit.ok) return finish(() => writeReply(res, rateLimitedReply(limit.retryAfterSeconds), []));
          if (!sessions.tokenMatches(token)) return finish(() => sendPage(res, denied, 401));
          const cookie = sessionCookieHeader(sessions.open(now()), https);
          finish(() =>
            res.cork(() => {
              res.writeStatus('303 See Other');
              res.writeHeader('location', SESSION_PATH);
              res.writeHeader('set-cookie', cookie);
              res.writeHeader('cache-control', 'no-store');
              res.endWithoutBody(0);
            }),
          );
        },
        () => finish(() => writeReply(res, plainFailure(failure('store_unavailable')), [])),
      );
    });
  });

  app.get(`${SESSION_PATH}/data`, (res, req) => {
    if (!signedIn(req)) return writeReply(res, UNAUTHORIZED, []);
    const window = req.getQuery('window') || 'hour';
    const site = req.getQuery('site');
    if (!(window in WINDOWS)) return writeReply(res, plainFailure(failure('invalid_request', 'window: expected hour or day')), []);
    if (site !== undefined && site.length > MAX_SITE_LENGTH) {
      return writeReply(res, plainFailure(failure('invalid_request', `site: at most ${MAX_SITE_LENGTH} characters`)), []);
    }
    const finish = answerOnce(res);
    summarizeTraffic(opts.traffic, window as TrafficWindow, site === undefined ? null : site, now()).then(
      (summary) => finish(() => writeReply(res, { status: 200, body: summary }, [])),
      () => finish(() => writeReply(res, plainFailure(failure('store_unavailable')), [])),
    );
  });

  app.get(`${SESSION_PATH}/drift`, (res, req) => {
    if (!signedIn(req)) return writeReply(res, UNAUTHORIZED, []);
    const finish = answerOnce(res);
    driftOfSample(opts.traffic, config.scoring.table).then(
      (drift) => finish(() => writeReply(res, { status: 200, body: drift }, [])),
      () => finish(() => writeReply(res, plainFailure(failure('store_unavailable')), [])),
    );
  });

  app.get(`${SESSION_PATH}/keyboard`, (res, req) => {
    if (!signedIn(req)) return writeReply(res, UNAUTHORIZED, []);
    const finish = answerOnce(res);
    opts.keyboardDoors().then((doors) => finish(() => writeReply(res, { status: 200, body: { doors } }, [])));
  });

  app.get(`${SESSION_PATH}/traces.jsonl`, (res, req) => {
    if (!signedIn(req)) return writeReply(res, UNAUTHORIZED, []);
    const finish = answerOnce(res);
    opts.traffic.traces().then(
      (lines) =>
        finish(() =>
          writeReply(
            res,
            {
              status: 200,
              body: lines.length === 0 ? '' : `${lines.join('\n')}\n`,
              contentType: 'application/x-ndjson',
              headers: [['content-disposition', 'attachment; filename="ariadne-traces.jsonl"']],
            },
            [],
          ),
        ),
      () => finish(() => writeReply(res, plainFailure(failure('store_unavailable')), [])),
    );
  });
}

/** The dashboard's built files by name (empty when it is not built). */
function dashboardFiles(dir: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  if (!existsSync(dir)) return files;
  for (const name of readdirSync(dir)) {
    const file = readStaticFile(path.join(dir, name));
    if (file !== undefined) files.set(name, file);
  }
  return files;
}

function sendPage(res: HttpResponse, file: StaticFile, status: 200 | 401): void {
  res.cork(() => {
    if (status !== 200) res.writeStatus('401 Unauthorized');
    res.writeHeader('content-type', file.contentType);
    for (const [name, value] of PAGE_HEADERS) res.writeHeader(name, value);
    res.end(file.body);
  });
}

/** Runs the answer given later once, unless the client went away meanwhile. */
function answerOnce(res: HttpResponse): (write: () => void) => void {
  let open = true;
  res.onAborted(() => {
    open = false;
  });
  return (write) => {
    if (!open) return;
    open = false;
    write();
  };
}

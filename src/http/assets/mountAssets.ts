import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HttpRequest, HttpResponse, TemplatedApp } from 'uWebSockets.js';
import { failure } from '../../core/errors.js';
import { FORM_TYPE, mediaType } from '../mediaType.js';
import { parseJson } from '../parseJson.js';
import { readBody } from '../readBody.js';
import { writeReply } from '../reply.js';
import { plainFailure } from '../route.js';
import { COMPAT_SCRIPT_PATHS } from './compatScripts.js';
import { type VerifyTokenInProcess, demoSignup } from './demoSignup.js';
import { type StaticFile, loadClientFiles } from './loadClientFiles.js';
import { SECURITY_HEADERS } from './securityHeaders.js';

export interface MountAssetsOptions {
  /** Redeems a session token for the demo backend (verifyToken with the server's secret and store). */
  verifyTokenInProcess: VerifyTokenInProcess;
  /** The built client; default dist/client of this package. */
  distDir?: string;
  /** API_PREFIX: every file and the demo backend are served under it too. */
  apiPrefix?: string;
}

/** src/http/assets and dist/http/assets both sit three levels below the package root. */
const DEFAULT_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../dist/client');
const DEMO_BODY_LIMIT = 16 * 1024;
const ANY_ORIGIN = [['access-control-allow-origin', '*']] as const;

/** Answers with `file` (or 304 when the client holds it), under the widget's security headers. */
export function sendFile(res: HttpResponse, file: StaticFile, ifNoneMatch: string): void {
  res.cork(() => {
    const fresh = ifNoneMatch === file.etag;
    res.writeStatus(fresh ? '304 Not Modified' : '200 OK');
    res.writeHeader('content-type', file.contentType);
    res.writeHeader('etag', file.etag);
    res.writeHeader('cache-control', 'no-cache');
    res.writeHeader('access-control-allow-origin', '*');
    for (const [name, value] of SECURITY_HEADERS) res.writeHeader(name, value);
    if (fresh) res.endWithoutBody(0);
    else res.end(file.body);
  });
}

/**
 * Serves the browser client and the demo: GET / (the demo sign-up page), /ariadne.js (classic
 * script), /ariadne.mjs (ES module), /ariadne-worker.js, /kernel.wasm, the compatible scripts
 * (/recaptcha/api.js, /1/api.js, /1/secure-api.js, /turnstile/v0/api.js), their source maps
 * and /demo/*, all read into memory once; and POST /demo/signup, the demo's backend.
 */
export function mountAssets(app: TemplatedApp, opts: MountAssetsOptions): void {
  const files = loadClientFiles(opts.distDir ?? DEFAULT_DIST);
  const missing = plainFailure(failure('not_found', 'the browser client is not built: npm run build:client'));
  for (const prefix of opts.apiPrefix ? ['', opts.apiPrefix] : ['']) {
    for (const urlPath of [
      '/',
      '/ariadne.js',
      '/ariadne.mjs',
      '/ariadne-worker.js',
      '/kernel.wasm',
      ...Object.values(COMPAT_SCRIPT_PATHS).flat(),
    ]) {
      if (!files.has(urlPath)) app.get(prefix + urlPath, (res) => writeReply(res, missing, ANY_ORIGIN));
    }
    for (const [urlPath, file] of files) {
      app.get(prefix + urlPath, (res, req) => sendFile(res, file, req.getHeader('if-none-match')));
    }
    app.post(`${prefix}/demo/signup`, (res, req) => demoSignupRoute(res, req, opts.verifyTokenInProcess));
  }
}

/** POST /demo/signup: the demo's backend, a form (or JSON) with a session token to redeem. */
function demoSignupRoute(res: HttpResponse, req: HttpRequest, verifyTokenInProcess: VerifyTokenInProcess): void {
  const contentType = req.getHeader('content-type');
  const wantsJson = req.getHeader('accept').toLowerCase().includes('application/json') || mediaType(contentType) === 'application/json';
  let open = true;
  res.onAborted(() => {
    open = false;
  });
  const finish = (reply: Parameters<typeof writeReply>[1]) => {
    if (open) writeReply(res, reply, []);
    open = false;
  };
  readBody(res, DEMO_BODY_LIMIT, req.getHeader('content-length'), (bytes) => {
    if (bytes === undefined) return finish({ ...plainFailure(failure('payload_too_large')), close: true });
    let fields: Record<string, unknown>;
    if (mediaType(contentType) === FORM_TYPE) {
      fields = Object.fromEntries(new URLSearchParams(bytes.toString('utf8')));
    } else {
      const parsed = parseJson(bytes);
      if (!parsed.ok || typeof parsed.value !== 'object' || parsed.value === null) {
        return finish(plainFailure(failure('invalid_request', parsed.ok ? 'body: expected an object' : parsed.detail)));
      }
      fields = parsed.value as Record<string, unknown>;
    }
    demoSignup(fields, wantsJson, verifyTokenInProcess).then(finish, () => finish(plainFailure(failure('internal_error'))));
  });
}

import type { Header } from '../cors.js';

/**
 * The Content-Security-Policy of the demo page and the widget's files (a worker script's own
 * response sets the worker's policy). Nothing inline, no eval: scripts from this origin only,
 * plus 'wasm-unsafe-eval', which compiling the kernel needs; workers from this origin or a blob:
 * (the widget starts one from a blob when its script is served from another origin).
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self' blob:",
  "connect-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers of every browser-facing file: the policy above, no MIME sniffing, no full referrer. */
export const SECURITY_HEADERS: readonly Header[] = [
  ['content-security-policy', CONTENT_SECURITY_POLICY],
  ['x-content-type-options', 'nosniff'],
  ['referrer-policy', 'strict-origin-when-cross-origin'],
];

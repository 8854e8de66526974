import type { Reply } from '../reply.js';
import { type DemoOutcome, type DemoVerdict, demoVerdict } from './demoVerdict.js';

/** Redeems a demo token in-process, saying how the demo site is scored. */
export type VerifyTokenInProcess = (token: string, sessionId: string) => Promise<DemoOutcome>;

/** The site key the demo page's widget uses (src/client/demo/index.html); a sites file must list it for the demo to work. */
export const DEMO_SITE_KEY = 'demo';

/** Field names the widget writes into the form. */
const TOKEN_FIELD = 'ariadne-response';
const SESSION_FIELD = 'ariadne-session';

const escapeHtml = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function page(title: string, text: string, tone: DemoVerdict['tone']): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><link rel="icon" href="/demo/favicon.svg"><link rel="stylesheet" href="/demo/demo.css"></head>
<body><main class="card"><h1>${escapeHtml(title)}</h1><p class="outcome ${tone}" id="outcome">${escapeHtml(text)}</p>
<p><a href="/">Back to the sign-up form</a></p></main></body></html>`;
}

/**
 * The demo backend: reads the sign-up form (urlencoded or JSON), redeems the widget's token
 * in-process, and answers JSON (when asked for) or a small HTML page.
 */
export async function demoSignup(
  fields: Record<string, unknown>,
  wantsJson: boolean,
  verifyTokenInProcess: VerifyTokenInProcess,
): Promise<Reply> {
  const token = fields[TOKEN_FIELD];
  const sessionId = fields[SESSION_FIELD];
  const email = typeof fields.email === 'string' ? fields.email.slice(0, 200) : '';
  const outcome =
    typeof token !== 'string' || token === '' || typeof sessionId !== 'string' || sessionId === ''
      ? { valid: false, score: 0, error: 'missing_input' }
      : await verifyTokenInProcess(token, sessionId);
  const status = outcome.valid ? 200 : 400;
  if (wantsJson) {
    return {
      status,
      body: outcome.valid
        ? { success: true, score: outcome.score, email }
        : { success: false, score: 0, error: outcome.error ?? 'invalid_token' },
    };
  }
  const verdict = demoVerdict(outcome);
  const html = outcome.valid
    ? page('Welcome', `Signed up${email ? ` as ${email}` : ''}. ${verdict.text}`, verdict.tone)
    : page('Sign-up refused', verdict.text, verdict.tone);
  return { status, body: html, contentType: 'text/html; charset=utf-8' };
}

/**
 * The siteverify shapes of reCAPTCHA, hCaptcha and Turnstile, as data: where each is served,
 * what it calls each failure, and the fields its successes carry beyond the common ones. The
 * codes are the services' own, so the verifiers written for them read ours unchanged.
 */
import { type TSchema, Type } from '@sinclair/typebox';
import type { CompatFault } from '../../core/compat/siteverifyCompat.js';

export interface Dialect {
  /** The service whose shape this is, as its users know it. */
  service: string;
  /** Where its backends post (the service's own path). */
  path: string;
  /** Its error code for each failure. */
  codes: Readonly<Record<CompatFault, string>>;
  /** Fields of its successes beyond success, challenge_ts, hostname and error-codes: values and schemas. */
  extras: { values: Readonly<Record<string, unknown>>; schemas: Readonly<Record<string, TSchema>> };
  /**
   * Its verifiers take an answer with a `score` and an `action` for a v3 one (checking both) and
   * any other for a v2 one: a token made without an action (a v2 widget) is answered without
   * Ariadne's score and reasons, as v2 answers, and one made by execute(key, {action}) with both.
   */
  scoreWithAction?: true;
}

/** The codes the three share: reCAPTCHA's, which hCaptcha and Turnstile kept. */
const COMMON = {
  missing_secret: 'missing-input-secret',
  invalid_secret: 'invalid-input-secret',
  missing_response: 'missing-input-response',
  missing_input: 'missing-input-response',
  invalid_token: 'invalid-input-response',
  // Unreachable (these shapes carry no session id), mapped for completeness.
  session_mismatch: 'invalid-input-response',
  // A site whose policy refuses a different address (SitePolicy.remoteip = reject).
  remoteip_mismatch: 'invalid-input-response',
  invalid_request: 'bad-request',
  // None of the three has a code for "your store is down"; Turnstile's internal-error says
  // "retry", and failing closed with a 200 keeps their verifiers on their failure path.
  store_unavailable: 'internal-error',
} as const satisfies Partial<Record<CompatFault, string>>;

export const RECAPTCHA: Dialect = {
  service: 'reCAPTCHA',
  path: '/recaptcha/api/siteverify',
  codes: {
    ...COMMON,
    site_key_mismatch: 'invalid-input-response',
    token_expired: 'timeout-or-duplicate',
    token_already_used: 'timeout-or-duplicate',
  },
  extras: { values: {}, schemas: {} },
  scoreWithAction: true,
};

export const HCAPTCHA: Dialect = {
  service: 'hCaptcha',
  path: '/siteverify',
  codes: {
    ...COMMON,
    site_key_mismatch: 'sitekey-secret-mismatch',
    token_expired: 'expired-input-response',
    token_already_used: 'already-seen-response',
  },
  extras: {
    values: { credit: false },
    schemas: { credit: Type.Literal(false, { description: 'hCaptcha rewards; never here' }) },
  },
};

export const TURNSTILE: Dialect = {
  service: 'Turnstile',
  path: '/turnstile/v0/siteverify',
  codes: {
    ...COMMON,
    site_key_mismatch: 'invalid-input-response',
    token_expired: 'timeout-or-duplicate',
    token_already_used: 'timeout-or-duplicate',
  },
  extras: {
    // The widget's action is carried by the token (data-action, `action`); its cdata is not (docs/migrating.md).
    values: { action: '', cdata: '' },
    schemas: {
      action: Type.String({ description: "The widget's action the token carries; empty when it had none" }),
      cdata: Type.Literal('', { description: 'Not carried: always empty' }),
    },
  },
};

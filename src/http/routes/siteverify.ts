import type { Failure } from '../../core/errors.js';
import { siteverify } from '../../core/redeem/siteverify.js';
import type { SiteverifyCaller } from '../../core/redeem/siteverifyCaller.js';
import { siteLabel } from '../../core/traffic/siteLabel.js';
import { BEARER_CHALLENGE, bearerToken } from '../bearer.js';
import { SiteverifyFailure, SiteverifySuccess } from '../responses.js';
import { type PostRoute, failureReply } from '../route.js';
import type { Schemas, SiteverifyBody } from '../schemas.js';

/** Token verdicts answer 200 (like Turnstile/hCaptcha); a malformed request 400, a full store 503. */
const STATUS_OF_VERDICT: Partial<Record<string, number>> = { missing_input: 400, invalid_request: 400, store_unavailable: 503 };

/** The codes /siteverify answers with HTTP 200 and `success: false`. */
export const SITEVERIFY_VERDICTS = [
  'invalid_token',
  'site_key_mismatch',
  'session_mismatch',
  'token_expired',
  'remoteip_mismatch',
  'token_already_used',
] as const;

const siteverifyFailure = (f: Failure) => failureReply(f, { score: 0, error: f.code, 'error-codes': [f.code] });

const UNAUTHORIZED = { ...siteverifyFailure({ code: 'unauthorized' }), headers: BEARER_CHALLENGE };

/**
 * hCaptcha's backends post `response` and `secret` and never `token` or `session_id`, Ariadne's
 * post `token` and `session_id`: a body with neither of Ariadne's fields and either of hCaptcha's
 * is theirs. A secret alone counts, so that a backend whose `response` came out undefined (dropped
 * by JSON.stringify) reads hCaptcha's missing-input-response rather than a status it never expects.
 */
const HCAPTCHA_RULE =
  "A body without `token` and `session_id` and with `response` or `secret` is answered in hCaptcha's shape (always HTTP 200)";
const isHcaptchaBody = (body: unknown): boolean =>
  typeof body === 'object' &&
  body !== null &&
  !Object.hasOwn(body, 'token') &&
  !Object.hasOwn(body, 'session_id') &&
  (Object.hasOwn(body, 'response') || Object.hasOwn(body, 'secret'));

/**
 * `callerOf` tells who presents a secret (the `secret` field first, else the bearer token);
 * a secret that opens nothing is 401. `hcaptcha` answers the bodies of hCaptcha's backends,
 * which post to the same path.
 */
export function siteverifyRoute(
  schemas: Schemas,
  callerOf: (secret: string | undefined) => SiteverifyCaller | undefined,
  hcaptcha: PostRoute,
): PostRoute {
  return {
    path: '/siteverify',
    summary: "Redeem a session token once, from the site's backend (with its secret)",
    check: schemas.siteverify,
    form: true,
    bySecret: true,
    variant: { selects: isHcaptchaBody, route: hcaptcha, rule: HCAPTCHA_RULE },
    success: SiteverifySuccess,
    failure: SiteverifyFailure,
    errors: ['unauthorized', 'missing_input'],
    verdicts: SITEVERIFY_VERDICTS,
    fail: siteverifyFailure,
    async handle(ctx, body: SiteverifyBody, info) {
      const caller = callerOf(body.secret || bearerToken(info.authorization));
      if (caller === undefined) return UNAUTHORIZED;
      const result = await siteverify(ctx, body, caller);
      if (ctx.traffic !== undefined) {
        const siteKey = caller.kind === 'site' ? caller.site.key : result.success ? result.site_key : undefined;
        ctx.traffic.redeemed(siteLabel(ctx.sites, siteKey), result.success ? 'ok' : result.error);
      }
      if (result.success) return { status: 200, body: result };
      return { status: STATUS_OF_VERDICT[result.error] ?? 200, code: result.error, body: result };
    },
  };
}

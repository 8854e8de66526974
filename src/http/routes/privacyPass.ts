import type { CoreContext } from '../../core/context.js';
import { failure } from '../../core/errors.js';
import { redeemPrivacyPass } from '../../core/privacyPass/redeemPrivacyPass.js';
import { siteLabel } from '../../core/traffic/siteLabel.js';
import { bindingFromAddress, checkRateLimit } from '../../core/rateLimit.js';
import type { GetRoute } from '../route.js';
import { PrivacyPassResponse } from '../responses.js';
import { ADMISSION_ERRORS, CHALLENGE_ID_ERRORS, plainFailure, rateLimitedReply } from '../route.js';
import { LIMITS } from '../schemas.js';

/** The query parameters, each required and at most this long. */
const PARAMS = { challenge_id: LIMITS.challengeId, site_key: LIMITS.siteKey, session_id: LIMITS.sessionId } as const;
/** Longest Host header read as origin info (a host name and a port). */
const MAX_HOST = 261;

/**
 * GET /privacy-pass?challenge_id&site_key&session_id: the Privacy Pass door as HTTP
 * authentication (RFC 9577). Without a token it answers 401 with a `WWW-Authenticate:
 * PrivateToken` challenge per trusted issuer, bound to the challenge; a browser that holds such
 * tokens retries the same request with `Authorization: PrivateToken token=...` and gets a session
 * token; one that does not leaves the 401 to the widget, which shows the maze. A GET because that
 * is what browsers answer challenges on. A request with an Authorization header counts in the
 * /verify rate-limit bucket; the 401 that asks for a token does not (every page load asks).
 */
export const privacyPassRoute = (ctx: CoreContext): GetRoute => ({
  path: '/privacy-pass',
  summary: 'Privacy Pass: 401 with PrivateToken challenges for a challenge id, or a session token for a valid token (no maze)',
  success: PrivacyPassResponse,
  errors: [
    'invalid_request',
    'rate_limited',
    'store_unavailable',
    ...ADMISSION_ERRORS,
    ...CHALLENGE_ID_ERRORS,
    'not_found',
    'privacy_pass_required',
    'privacy_pass_malformed',
    'privacy_pass_unsupported_type',
    'privacy_pass_rejected',
  ],
  request: true,
  query: PARAMS,
  answer: async (authorization, request) => {
    const query = new URLSearchParams(request!.query);
    const values: Partial<Record<keyof typeof PARAMS, string>> = {};
    for (const [name, max] of Object.entries(PARAMS) as [keyof typeof PARAMS, number][]) {
      const v = query.get(name) ?? '';
      if (v === '' || v.length > max) return plainFailure(failure('invalid_request', `${name}: required, at most ${max} characters`));
      values[name] = v;
    }
    const host = request!.host.toLowerCase();
    if (host === '' || host.length > MAX_HOST) return plainFailure(failure('invalid_request', 'host: the Host header is required'));
    if (authorization !== '') {
      // Only a request with a token costs a signature check: the 401 that asks for one is free.
      const limit = await checkRateLimit(
        ctx.store,
        'verify',
        bindingFromAddress(request!.address),
        ctx.config.rateLimitPerMinute,
        ctx.now(),
      );
      if (!limit.ok) {
        ctx.traffic?.limited(siteLabel(ctx.sites, values.site_key), 'verify', limit.first);
        return rateLimitedReply(limit.retryAfterSeconds);
      }
    }
    const client = { origin: request!.origin, address: request!.address };
    const r = await redeemPrivacyPass(
      ctx,
      { challengeId: values.challenge_id!, siteKey: values.site_key!, sessionId: values.session_id!, authorization, host },
      client,
    );
    if (r.ok) return { status: 200, body: { success: true, token: r.token } };
    const reply = plainFailure(r.failure);
    return r.challenges === undefined ? reply : { ...reply, headers: r.challenges.map((c) => ['www-authenticate', c.header] as const) };
  },
});

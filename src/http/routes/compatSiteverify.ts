import { type CompatFault, siteverifyCompat } from '../../core/compat/siteverifyCompat.js';
import type { ErrorCode, Failure } from '../../core/errors.js';
import type { SiteverifyCaller } from '../../core/redeem/siteverifyCaller.js';
import { bearerToken } from '../bearer.js';
import type { Dialect } from '../compat/dialects.js';
import type { Reply } from '../reply.js';
import { compatFailure, compatSuccess } from '../responses.js';
import type { PostRoute } from '../route.js';
import type { CompatSiteverifyBody, Schemas } from '../schemas.js';

/** What a request the route could not even read is, in the faults' terms. */
const FAULT_OF_FAILURE: Partial<Record<ErrorCode, CompatFault>> = {
  internal_error: 'store_unavailable',
  store_unavailable: 'store_unavailable',
};

/**
 * Siteverify in `dialect`'s shape (reCAPTCHA, hCaptcha, Turnstile): the token a compat widget put
 * in the form, redeemed without a session id (siteverifyCompat). Every answer is HTTP 200 JSON,
 * refusals included, as those services answer; a body too large, malformed or of the wrong
 * types is their `bad-request`, an unavailable store `internal-error`.
 */
export function compatSiteverifyRoute(
  schemas: Schemas,
  dialect: Dialect,
  callerOf: (secret: string) => SiteverifyCaller | undefined,
): PostRoute {
  const refusal = (faults: readonly CompatFault[], test?: true): Reply => ({
    status: 200,
    // Metrics count Ariadne's own name of the first fault.
    code: faults[0],
    body: { success: false, 'error-codes': faults.map((f) => dialect.codes[f]), score: 0, ...(test ? { test } : {}) },
  });
  return {
    path: dialect.path,
    summary: `Redeem a token once, in ${dialect.service}'s siteverify shape (always 200 JSON)`,
    check: schemas.compatSiteverify,
    form: true,
    bySecret: true,
    alwaysOk: true,
    success: compatSuccess(dialect.service, dialect.extras.schemas, dialect.scoreWithAction),
    failure: compatFailure(dialect.service, Object.values(dialect.codes)),
    errors: [],
    fail: (f: Failure) => refusal([FAULT_OF_FAILURE[f.code] ?? 'invalid_request']),
    async handle(ctx, body: CompatSiteverifyBody, info) {
      const secret = body.secret || bearerToken(info.authorization);
      const verdict = await siteverifyCompat(ctx, { ...body, secret }, callerOf);
      if (!verdict.success) return refusal(verdict.faults, verdict.test);
      const { success, challenge_ts, hostname, ...ariadne } = verdict;
      const fields = dialect.scoreWithAction && ariadne.action === undefined ? withoutScore(ariadne) : ariadne;
      return { status: 200, body: { success, challenge_ts, hostname, 'error-codes': [], ...dialect.extras.values, ...fields } };
    },
  };
}

/** A v2 answer's fields: Ariadne's others, without the score and its reasons (see Dialect.scoreWithAction). */
function withoutScore<T extends { score?: number; reasons?: unknown }>(fields: T): Omit<T, 'score' | 'reasons'> {
  const { score: _score, reasons: _reasons, ...rest } = fields;
  return rest;
}

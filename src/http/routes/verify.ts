import type { Failure } from '../../core/errors.js';
import { verifySubmission } from '../../core/verify/verifySubmission.js';
import { VerifyFailure, VerifyResponse } from '../responses.js';
import { ADMISSION_ERRORS, CHALLENGE_ID_ERRORS, type PostRoute, failureReply } from '../route.js';
import type { Schemas, VerifyBody } from '../schemas.js';

/** Failures never carry a real score: a score oracle would teach bots. */
const verifyFailure = (f: Failure) => failureReply(f, { score: 0, error_code: f.code });
const TEST = { test: true } as const;

export const verifyRoute = (schemas: Schemas): PostRoute => ({
  path: '/verify',
  summary: 'Verify a solved challenge: replay, proof of work, signature, probes, passkey, score; a single-use session token',
  check: schemas.verify,
  bucket: 'verify',
  success: VerifyResponse,
  failure: VerifyFailure,
  errors: [
    ...ADMISSION_ERRORS,
    ...CHALLENGE_ID_ERRORS,
    'invalid_pow',
    'trace_time_mismatch',
    'invalid_path',
    'probe_failed',
    'invalid_signature',
    'webauthn_required',
    'webauthn_failed',
    'passkey_rate_exceeded',
    'behavioral_rejected',
    'duplicate_trace',
  ],
  fail: verifyFailure,
  handle: async (ctx, body: VerifyBody, info) => {
    const r = await verifySubmission(ctx, body, info);
    const test = r.test === true ? TEST : undefined;
    if (r.ok) return { status: 200, body: { success: true, token: r.token, ...test } };
    const reply = verifyFailure(r.failure);
    return test === undefined ? reply : { ...reply, body: { ...(reply.body as object), ...test } };
  },
});

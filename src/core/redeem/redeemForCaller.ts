import type { Store } from '../../store/Store.js';
import { reasonsOfClaim } from '../scoring/reasons/reasonClaim.js';
import type { ReasonCode } from '../scoring/reasons/reasonCodes.js';
import type { KeyRing } from '../token/keys.js';
import { redeemSessionToken, type UNBOUND_SESSION } from './redeemSessionToken.js';
import type { SiteverifyErrorCode, SiteverifyInput, SiteverifyResult } from './SiteverifyResult.js';
import type { SiteverifyCaller } from './siteverifyCaller.js';
import { TEST_CHALLENGE_ID, TEST_SITE_KEYS } from '../sites/testKeys.js';
import { isIdempotencyKey } from '../token/idempotencyKey.js';

/**
 * The redemption behind /siteverify and its reCAPTCHA, hCaptcha and Turnstile shapes, once the
 * token is present: a test secret gets its fixed verdict; a site redeems only its own tokens
 * (and the one its `sitekey` names); otherwise see redeemSessionToken for the order.
 * `sessionId` is UNBOUND_SESSION for the shapes whose callers have none.
 */
export async function redeemForCaller(
  deps: { ring: KeyRing; store: Store; now?: () => number },
  token: string,
  sessionId: string | typeof UNBOUND_SESSION,
  input: Pick<SiteverifyInput, 'sitekey' | 'remoteip' | 'idempotency_key'>,
  caller: SiteverifyCaller,
): Promise<SiteverifyResult> {
  const { sitekey, remoteip, idempotency_key: idempotencyKey } = input;
  const now = (deps.now ?? Date.now)();
  if (caller.kind === 'test') return testVerdict(caller.verdict, typeof sessionId === 'string' ? sessionId : '', now);
  if (idempotencyKey !== undefined && !isIdempotencyKey(idempotencyKey)) return siteverifyFailure('invalid_request');
  const siteKeys = [
    caller.kind === 'site' ? caller.site.key : undefined,
    typeof sitekey === 'string' && sitekey !== '' ? sitekey : undefined,
  ];
  const result = await redeemSessionToken({ ring: deps.ring, store: deps.store, now }, token, sessionId, {
    siteKeys: siteKeys.filter((k): k is string => k !== undefined),
    idempotencyKey,
    remoteIp: typeof remoteip === 'string' ? remoteip : undefined,
    rejectRemoteIpMismatch: caller.kind === 'site' && caller.site.policy.remoteip === 'reject',
  });
  if (!result.ok) return siteverifyFailure(result.code);
  const c = result.claims;
  const answer: SiteverifyResult = {
    success: true,
    score: c.score,
    ...reasonsField(c.rsn),
    challenge_id: c.challenge_id,
    session_id: c.session_id,
    site_key: c.site_key,
    ...(c.input_type !== undefined ? { input_type: c.input_type } : {}),
    ...(c.method !== undefined ? { method: c.method } : {}),
    ...(c.act !== undefined ? { action: c.act } : {}),
    challenge_ts: isoTime(c.iat),
    hostname: c.hostname,
    'error-codes': [],
  };
  if (result.remoteIpMismatch !== undefined) answer.remoteip_mismatch = result.remoteIpMismatch;
  return answer;
}

/** `reasons` when the claim names any code this server knows. */
function reasonsField(rsn: number[] | undefined): { reasons?: ReasonCode[] } | undefined {
  // Most tokens carry none: nothing is built for them.
  if (rsn === undefined) return undefined;
  const reasons = reasonsOfClaim(rsn);
  return reasons.length > 0 ? { reasons } : undefined;
}

/** The fixed verdict of a test secret, whatever the token. */
function testVerdict(verdict: 'pass' | 'fail' | 'used', sessionId: string, now: number): SiteverifyResult {
  if (verdict === 'fail') return { ...siteverifyFailure('invalid_token'), test: true };
  if (verdict === 'used') return { ...siteverifyFailure('token_already_used'), test: true };
  return {
    success: true,
    score: 1,
    challenge_id: TEST_CHALLENGE_ID,
    session_id: sessionId,
    site_key: Object.keys(TEST_SITE_KEYS)[0]!,
    challenge_ts: isoTime(Math.floor(now / 1000)),
    hostname: '',
    'error-codes': [],
    test: true,
  };
}

/** ISO 8601 text of a JWT time (seconds); tokens redeemed together share one, so the last is kept. */
let lastTime = { iat: NaN, iso: '' };
function isoTime(iat: number): string {
  if (iat !== lastTime.iat) lastTime = { iat, iso: new Date(iat * 1000).toISOString() };
  return lastTime.iso;
}

/** The failure answer of `error`. */
export function siteverifyFailure(error: SiteverifyErrorCode): SiteverifyResult & { success: false } {
  return { success: false, score: 0, error, 'error-codes': [error] };
}

import type { Store } from '../store/Store.js';
import type { InputType } from './scoring/ScoringTable.js';
import { reasonsOfClaim } from './scoring/reasons/reasonClaim.js';
import type { ReasonCode } from './scoring/reasons/reasonCodes.js';
import type { KeyRing } from './token/keys.js';
import { redeemSessionToken, type RedeemErrorCode } from './redeemSessionToken.js';
import type { SiteverifyCaller } from './siteverifyCaller.js';
import { TEST_CHALLENGE_ID, TEST_SITE_KEYS } from './sites/testKeys.js';
import { isIdempotencyKey } from './token/idempotencyKey.js';

/** Every `error` /siteverify can answer with. */
export type SiteverifyErrorCode = 'missing_input' | 'invalid_request' | RedeemErrorCode;

/** What /siteverify reads from its body (form or JSON). */
export interface SiteverifyInput {
  token?: unknown;
  session_id?: unknown;
  /** The token must belong to this site. */
  sitekey?: unknown;
  /** The address the integrator saw its user at: compared with the solving address. */
  remoteip?: unknown;
  /** Same token and key within the token's life: the first answer again. */
  idempotency_key?: unknown;
}

/**
 * The answer of /siteverify: the spec's fields plus the Turnstile/hCaptcha-style extras
 * `challenge_ts`, `hostname` and `error-codes`; `remoteip_mismatch` when `remoteip` was given and
 * the solving address is known; `reasons` when the token carries reason codes; `test` on the
 * answers of a test secret.
 */
export type SiteverifyResult =
  | {
      success: true;
      score: number;
      /** Why the score is under the threshold, strongest first (at most 3; only then, and only in shadow mode). */
      reasons?: ReasonCode[];
      challenge_id: string;
      session_id: string;
      site_key: string;
      /** The input type /verify inferred from the events, for a site's own policy (absent in older tokens). */
      input_type?: InputType;
      /** ISO 8601 time the token was minted (its iat). */
      challenge_ts: string;
      hostname: string;
      'error-codes': [];
      remoteip_mismatch?: boolean;
      test?: true;
    }
  | {
      success: false;
      score: 0;
      error: SiteverifyErrorCode;
      'error-codes': [SiteverifyErrorCode];
      test?: true;
    };

/**
 * Redeems a session token for a site's backend. A missing or empty `token` or `session_id`
 * is answered before any verification; a site redeems only its own tokens (and the one its
 * `sitekey` names); otherwise see redeemSessionToken for the order.
 */
export async function siteverify(
  deps: { ring: KeyRing; store: Store; now?: () => number },
  input: SiteverifyInput,
  caller: SiteverifyCaller = { kind: 'operator' },
): Promise<SiteverifyResult> {
  const { token, session_id: sessionId, sitekey, remoteip, idempotency_key: idempotencyKey } = input;
  if (typeof token !== 'string' || token === '' || typeof sessionId !== 'string' || sessionId === '') {
    return fail('missing_input');
  }
  const now = (deps.now ?? Date.now)();
  if (caller.kind === 'test') return testVerdict(caller.verdict, sessionId, now);
  if (idempotencyKey !== undefined && !isIdempotencyKey(idempotencyKey)) return fail('invalid_request');
  const siteKeys = [caller.kind === 'site' ? caller.site.key : undefined, typeof sitekey === 'string' && sitekey !== '' ? sitekey : undefined];
  const result = await redeemSessionToken({ ring: deps.ring, store: deps.store, now }, token, sessionId, {
    siteKeys: siteKeys.filter((k): k is string => k !== undefined),
    idempotencyKey,
    remoteIp: typeof remoteip === 'string' ? remoteip : undefined,
    rejectRemoteIpMismatch: caller.kind === 'site' && caller.site.policy.remoteip === 'reject',
  });
  if (!result.ok) return fail(result.code);
  const c = result.claims;
  const answer: SiteverifyResult = {
    success: true,
    score: c.score,
    ...reasonsField(c.rsn),
    challenge_id: c.challenge_id,
    session_id: c.session_id,
    site_key: c.site_key,
    ...(c.input_type !== undefined ? { input_type: c.input_type } : {}),
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
  if (verdict === 'fail') return { ...fail('invalid_token'), test: true };
  if (verdict === 'used') return { ...fail('token_already_used'), test: true };
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

function fail(error: SiteverifyErrorCode): SiteverifyResult & { success: false } {
  return { success: false, score: 0, error, 'error-codes': [error] };
}

import type { Store } from '../store/Store.js';
import type { InputType } from './scoring/ScoringTable.js';
import type { KeyRing } from './token/keys.js';
import { redeemSessionToken, type RedeemErrorCode } from './redeemSessionToken.js';

/** Every `error` /siteverify can answer with. */
export type SiteverifyErrorCode = 'missing_input' | RedeemErrorCode;

/**
 * The answer of /siteverify: the spec's fields plus the Turnstile/hCaptcha-style extras
 * `challenge_ts`, `hostname` and `error-codes`.
 */
export type SiteverifyResult =
  | {
      success: true;
      score: number;
      challenge_id: string;
      session_id: string;
      site_key: string;
      /** The input type /verify inferred from the events, for a site's own policy (absent in older tokens). */
      input_type?: InputType;
      /** ISO 8601 time the token was minted (its iat). */
      challenge_ts: string;
      hostname: string;
      'error-codes': [];
    }
  | {
      success: false;
      score: 0;
      error: SiteverifyErrorCode;
      'error-codes': [SiteverifyErrorCode];
    };

/**
 * Redeems a session token for a site's backend. A missing or empty `token` or `session_id`
 * is answered before any verification; otherwise see redeemSessionToken for the order.
 */
export async function siteverify(
  deps: { ring: KeyRing; store: Store; now?: () => number },
  input: { token?: unknown; session_id?: unknown },
): Promise<SiteverifyResult> {
  const { token, session_id: sessionId } = input;
  if (typeof token !== 'string' || token === '' || typeof sessionId !== 'string' || sessionId === '') {
    return fail('missing_input');
  }
  const now = (deps.now ?? Date.now)();
  const result = await redeemSessionToken({ ring: deps.ring, store: deps.store, now }, token, sessionId);
  if (!result.ok) return fail(result.code);
  const c = result.claims;
  return {
    success: true,
    score: c.score,
    challenge_id: c.challenge_id,
    session_id: c.session_id,
    site_key: c.site_key,
    ...(c.input_type !== undefined ? { input_type: c.input_type } : {}),
    challenge_ts: isoTime(c.iat),
    hostname: c.hostname,
    'error-codes': [],
  };
}

/** ISO 8601 text of a JWT time (seconds); tokens redeemed together share one, so the last is kept. */
let lastTime = { iat: NaN, iso: '' };
function isoTime(iat: number): string {
  if (iat !== lastTime.iat) lastTime = { iat, iso: new Date(iat * 1000).toISOString() };
  return lastTime.iso;
}

function fail(error: SiteverifyErrorCode): SiteverifyResult {
  return { success: false, score: 0, error, 'error-codes': [error] };
}

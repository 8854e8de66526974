import type { Store } from '../../store/Store.js';
import type { InputType } from '../scoring/ScoringTable.js';
import { reasonsOfClaim } from '../scoring/reasons/reasonClaim.js';
import type { ReasonCode } from '../scoring/reasons/reasonCodes.js';
import { keyRing, type SigningKey } from '../token/keys.js';
import type { SolveMethod } from '../token/solveMethod.js';
import { redeemSessionToken, type RedeemErrorCode } from './redeemSessionToken.js';
import { IDEMPOTENCY_KEY_PATTERN, isIdempotencyKey } from '../token/idempotencyKey.js';

export interface VerifyTokenOptions {
  /** The current signing secret (SIGNING_SECRET). */
  secret: string;
  /** Other keys still accepted during a rotation (SIGNING_KEYS). */
  secrets?: SigningKey[];
  /** The session the token must be bound to. */
  sessionId: string;
  /** Where used token ids are remembered; share it with every verifier of the same tokens. */
  store: Store;
  /** The token must belong to this site (site_key_mismatch otherwise). */
  siteKey?: string;
  /**
   * Makes a retry safe: the same token with the same key within its life returns the first
   * answer again; any other second redemption fails with token_already_used. 1-64 of
   * A-Z a-z 0-9 . _ : -
   */
  idempotencyKey?: string;
  /** The address you saw the user at: `remoteIpMismatch` says whether it is not the solving one. */
  remoteIp?: string;
}

export interface VerifyTokenResult {
  valid: boolean;
  /** The token's score when valid; 0 on failure (as interface.md shows). */
  score: number;
  /** When valid: the input type /verify inferred from the events (mouse, touch, pen, keyboard), for a site's own policy. */
  inputType?: InputType;
  /** When valid: how the token was earned (token/solveMethod.ts; absent in older tokens). */
  method?: SolveMethod;
  /** When valid and the score was under the threshold in shadow mode: why, strongest first (at most 3). */
  reasons?: ReasonCode[];
  error?: RedeemErrorCode;
  /** With `remoteIp`: whether it differs from the address that solved the maze (when known). */
  remoteIpMismatch?: boolean;
}

/**
 * In-process verification of a session token: the same check /siteverify runs, without the
 * decoded claims. Its input is trusted to be present (no missing-field checks); an empty
 * `secret` or a malformed `idempotencyKey` is a programming error and throws a TypeError rather
 * than answer a verdict.
 */
export async function verifyToken(token: string, opts: VerifyTokenOptions): Promise<VerifyTokenResult> {
  const ring = keyRing(opts.secret, opts.secrets ?? []);
  if (opts.idempotencyKey !== undefined && !isIdempotencyKey(opts.idempotencyKey)) {
    throw new TypeError(`idempotencyKey must match ${IDEMPOTENCY_KEY_PATTERN}`);
  }
  const result = await redeemSessionToken({ ring, store: opts.store, now: Date.now() }, token, opts.sessionId, {
    siteKeys: opts.siteKey === undefined ? [] : [opts.siteKey],
    idempotencyKey: opts.idempotencyKey,
    remoteIp: opts.remoteIp,
  });
  if (!result.ok) return { valid: false, score: 0, error: result.code };
  const { score, input_type: inputType, method, rsn } = result.claims;
  const answer: VerifyTokenResult = inputType === undefined ? { valid: true, score } : { valid: true, score, inputType };
  if (method !== undefined) answer.method = method;
  const reasons = rsn === undefined ? [] : reasonsOfClaim(rsn);
  if (reasons.length > 0) answer.reasons = reasons;
  if (result.remoteIpMismatch !== undefined) answer.remoteIpMismatch = result.remoteIpMismatch;
  return answer;
}

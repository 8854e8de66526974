import type { Store } from '../store/Store.js';
import type { InputType } from './scoring/ScoringTable.js';
import { keyRing, type SigningKey } from './token/keys.js';
import { redeemSessionToken, type RedeemErrorCode } from './redeemSessionToken.js';

export interface VerifyTokenOptions {
  /** The current signing secret (SIGNING_SECRET). */
  secret: string;
  /** Other keys still accepted during a rotation (SIGNING_KEYS). */
  secrets?: SigningKey[];
  /** The session the token must be bound to. */
  sessionId: string;
  /** Where used token ids are remembered; share it with every verifier of the same tokens. */
  store: Store;
}

export interface VerifyTokenResult {
  valid: boolean;
  /** The token's score when valid; 0 on failure (as interface.md shows). */
  score: number;
  /** When valid: the input type /verify inferred from the events (mouse, touch, pen, keyboard), for a site's own policy. */
  inputType?: InputType;
  error?: RedeemErrorCode;
}

/**
 * In-process verification of a session token: the same check /siteverify runs, without the
 * decoded claims. Its input is trusted to be present (no missing-field checks); an empty
 * `secret` is a configuration error and throws a TypeError rather than answer a verdict.
 */
export async function verifyToken(token: string, opts: VerifyTokenOptions): Promise<VerifyTokenResult> {
  const ring = keyRing(opts.secret, opts.secrets ?? []);
  const result = await redeemSessionToken({ ring, store: opts.store, now: Date.now() }, token, opts.sessionId);
  if (!result.ok) return { valid: false, score: 0, error: result.code };
  const { score, input_type: inputType } = result.claims;
  return inputType === undefined ? { valid: true, score } : { valid: true, score, inputType };
}

import type { ReasonCode } from '../scoring/reasons/reasonCodes.js';
import type { InputType } from '../scoring/ScoringTable.js';
import type { SolveMethod } from '../token/solveMethod.js';
import type { RedeemErrorCode } from './redeemSessionToken.js';

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
 * the solving address is known; `reasons` when the token carries reason codes; `action` when it
 * carries one; `test` on the answers of a test secret.
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
      /** How the token was earned (token/solveMethod.ts; absent in older tokens). */
      method?: SolveMethod;
      /** The action of a reCAPTCHA v3 execute that made the token; absent for every other solve. */
      action?: string;
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

import type { Store } from '../../store/Store.js';
import type { ReasonCode } from '../scoring/reasons/reasonCodes.js';
import type { KeyRing } from '../token/keys.js';
import type { SolveMethod } from '../token/solveMethod.js';
import { UNBOUND_SESSION } from '../redeem/redeemSessionToken.js';
import { redeemForCaller } from '../redeem/redeemForCaller.js';
import type { SiteverifyErrorCode } from '../redeem/SiteverifyResult.js';
import type { SiteverifyCaller } from '../redeem/siteverifyCaller.js';

/** Why a redemption in another service's shape failed, before that service names it in its own words. */
export type CompatFault = 'missing_secret' | 'invalid_secret' | 'missing_response' | SiteverifyErrorCode;

/** What the reCAPTCHA, hCaptcha and Turnstile shapes of siteverify read from their body. */
export interface CompatSiteverifyInput {
  /** The site's secret (the route falls back on the bearer token). */
  secret?: unknown;
  /** The token the widget put in the form's hidden field: what /verify returned. */
  response?: unknown;
  sitekey?: unknown;
  remoteip?: unknown;
  idempotency_key?: unknown;
}

export type CompatVerdict =
  | {
      success: true;
      score: number;
      reasons?: ReasonCode[];
      /** How the server judged the solve: an extra field, which these services' verifiers ignore. */
      method?: SolveMethod;
      /** ISO 8601 time the token was minted. */
      challenge_ts: string;
      hostname: string;
      /** The action of a reCAPTCHA v3 execute; absent for every other solve. */
      action?: string;
      remoteip_mismatch?: boolean;
      test?: true;
    }
  | { success: false; faults: CompatFault[]; test?: true };

/**
 * Redeems the token of a compat widget, whose caller has no session id to give (the widget
 * keeps it): the site of the secret (and the `sitekey`, when given) and single use are what
 * bind the token instead; see docs/migrating.md for what that costs. A missing secret and a
 * missing response are both reported, as reCAPTCHA does; a secret that opens nothing is
 * `invalid_secret` (never 401: these callers read the body, not the status).
 */
export async function siteverifyCompat(
  deps: { ring: KeyRing; store: Store; now?: () => number },
  input: CompatSiteverifyInput,
  callerOf: (secret: string) => SiteverifyCaller | undefined,
): Promise<CompatVerdict> {
  const secret = typeof input.secret === 'string' && input.secret !== '' ? input.secret : undefined;
  const response = typeof input.response === 'string' && input.response !== '' ? input.response : undefined;
  if (secret === undefined || response === undefined) {
    const faults: CompatFault[] = [];
    if (secret === undefined) faults.push('missing_secret');
    if (response === undefined) faults.push('missing_response');
    return { success: false, faults };
  }
  const caller = callerOf(secret);
  if (caller === undefined) return { success: false, faults: ['invalid_secret'] };
  const result = await redeemForCaller(deps, response, UNBOUND_SESSION, input, caller);
  const test = result.test === true ? { test: true as const } : {};
  if (!result.success) return { success: false, faults: [result.error], ...test };
  const verdict: CompatVerdict = {
    success: true,
    score: result.score,
    challenge_ts: result.challenge_ts,
    hostname: result.hostname,
    ...test,
  };
  if (result.reasons !== undefined) verdict.reasons = result.reasons;
  if (result.method !== undefined) verdict.method = result.method;
  if (result.action !== undefined) verdict.action = result.action;
  if (result.remoteip_mismatch !== undefined) verdict.remoteip_mismatch = result.remoteip_mismatch;
  return verdict;
}

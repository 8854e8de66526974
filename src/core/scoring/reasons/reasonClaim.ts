import { MAX_REASONS } from './explainScore.js';
import { REASON_CODES, type ReasonCode } from './reasonCodes.js';

/** The token claim of reason codes, compact: their places in REASON_CODES. */
export function reasonClaim(codes: readonly ReasonCode[]): number[] {
  return codes.map((c) => REASON_CODES.indexOf(c));
}

/** True for a claim reasonClaim can have made (a known code's place, at most MAX_REASONS). */
export function isReasonClaim(value: unknown): value is number[] {
  return Array.isArray(value) && value.length <= MAX_REASONS && value.every((i) => Number.isSafeInteger(i) && i >= 0);
}

/** The codes of a claim; places past the end (a newer server's codes) are left out. */
export function reasonsOfClaim(claim: readonly number[]): ReasonCode[] {
  return claim.flatMap((i) => (i < REASON_CODES.length ? [REASON_CODES[i]!] : []));
}

import type { InputType } from '../scoring/ScoringTable.js';
import { reasonClaim } from '../scoring/reasons/reasonClaim.js';
import type { ReasonCode } from '../scoring/reasons/reasonCodes.js';
import type { KeyRing } from '../token/keys.js';
import { randomBase64url } from '../token/randomPool.js';
import { signToken } from '../token/signToken.js';
import type { SolveMethod } from '../token/solveMethod.js';

/** Lifetime of a session token (interface.md: valid 60 seconds). */
export const SESSION_TOKEN_TTL_MS = 60_000;

/** The `typ` claim of session tokens; probe tickets and completion tokens carry their own. */
export const SESSION_TOKEN_TYP = 'session';

/**
 * Mints the single-use token /verify returns. Times are JWT seconds; `exp` is rounded down so
 * the token never outlives `ttlMs`. The random `jti` is what /siteverify consumes; `ip` is what
 * its `remoteip` is compared with.
 */
export function issueSessionToken(
  ring: KeyRing,
  c: {
    challengeId: string;
    sessionId: string;
    siteKey: string;
    score: number;
    /** Why the score is low (at most 3; empty when it is not): carried as `rsn`, only when any. */
    reasons?: readonly ReasonCode[];
    /** The input type inferred from the events (never the client's claim); absent for a door without a maze. */
    inputType?: InputType;
    /** How the server judged the solve (pointer, which keyboard model scored it, or a door): carried as `method`. */
    method: SolveMethod;
    hostname: string;
    /** The solving client's address as the server saw it ('' when unknown). */
    ip: string;
    now: number;
    ttlMs?: number;
    /**
     * The action of a reCAPTCHA v3 execute, carried as `act` (only when given): what its verifiers
     * compare with the actions they expect, and how they tell a v3 answer from a v2 one.
     */
    action?: string | undefined;
  },
): string {
  const ttlMs = c.ttlMs ?? SESSION_TOKEN_TTL_MS;
  return signToken(
    {
      typ: SESSION_TOKEN_TYP,
      challenge_id: c.challengeId,
      session_id: c.sessionId,
      site_key: c.siteKey,
      jti: randomBase64url(16),
      iat: Math.floor(c.now / 1000),
      exp: Math.floor((c.now + ttlMs) / 1000),
      score: c.score,
      ...(c.reasons !== undefined && c.reasons.length > 0 ? { rsn: reasonClaim(c.reasons) } : {}),
      ...(c.inputType === undefined ? {} : { input_type: c.inputType }),
      method: c.method,
      hostname: c.hostname,
      ip: c.ip,
      ...(c.action !== undefined ? { act: c.action } : {}),
    },
    ring.current,
  );
}

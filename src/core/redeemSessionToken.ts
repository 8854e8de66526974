import { type Store, StoreUnavailableError } from '../store/Store.js';
import type { KeyRing } from './token/keys.js';
import { readToken } from './token/readToken.js';
import { SESSION_TOKEN_TYP } from './issueSessionToken.js';
import { createdAtOf } from './challenge/challengeIdBytes.js';
import type { InputType } from './scoring/ScoringTable.js';

const INPUT_TYPES: ReadonlySet<string> = new Set<InputType>(['mouse', 'touch', 'pen', 'keyboard']);

/** The claims of an authenticated session token. */
export interface SessionClaims {
  challenge_id: string;
  session_id: string;
  site_key: string;
  jti: string;
  iat: number;
  exp: number;
  score: number;
  /** The input type /verify inferred from the events; absent in tokens minted before it was added. */
  input_type?: InputType;
  hostname: string;
}

/** Why a session token does not verify. */
export type RedeemErrorCode =
  | 'invalid_token'
  | 'session_mismatch'
  | 'token_expired'
  | 'token_already_used'
  | 'store_unavailable';

export type RedeemResult =
  | { ok: true; claims: SessionClaims }
  | { ok: false; code: RedeemErrorCode };

/** Store key prefix of a redeemed token's id. */
const JTI_MARKER = 'token:';

/**
 * The one verification of a session token, under both /siteverify and verifyToken.
 * Order: authenticity (format, HS256, MAC, typ) -> bound session -> expiry -> single use.
 * The token is spent only when every earlier check passed, so a wrong session or a forged
 * token cannot burn someone else's token; a full store refuses (fail closed).
 */
export async function redeemSessionToken(
  deps: { ring: KeyRing; store: Store; now: number },
  token: string,
  sessionId: string,
): Promise<RedeemResult> {
  const read = readToken(token, deps.ring, SESSION_TOKEN_TYP);
  if (!read.ok) return { ok: false, code: 'invalid_token' };
  const claims = read.claims;
  if (!isSessionClaims(claims)) return { ok: false, code: 'invalid_token' };
  if (claims.session_id !== sessionId) return { ok: false, code: 'session_mismatch' };
  const expiresAt = claims.exp * 1000;
  if (deps.now >= expiresAt) return { ok: false, code: 'token_expired' };
  // The challenge's creation (ms, in its id) is the earliest the token can have been minted.
  const issuedAt = createdAtOf(claims.challenge_id);
  if (issuedAt === undefined) return { ok: false, code: 'invalid_token' };
  const use = await deps.store.consume(JTI_MARKER + claims.jti, { issuedAt, expiresAt }).catch(unavailable);
  if (use === 'used' || use === 'again') return { ok: false, code: 'token_already_used' };
  if (use === 'full' || use === 'unavailable') return { ok: false, code: 'store_unavailable' };
  return { ok: true, claims };
}

function isSessionClaims(c: Record<string, unknown>): c is Record<string, unknown> & SessionClaims {
  return (
    typeof c.challenge_id === 'string' &&
    typeof c.session_id === 'string' &&
    typeof c.site_key === 'string' &&
    typeof c.jti === 'string' &&
    c.jti.length > 0 &&
    Number.isSafeInteger(c.iat) &&
    Number.isSafeInteger(c.exp) &&
    typeof c.score === 'number' &&
    Number.isFinite(c.score) &&
    typeof c.hostname === 'string' &&
    (c.input_type === undefined || (typeof c.input_type === 'string' && INPUT_TYPES.has(c.input_type)))
  );
}

/** A store that cannot answer fails the redemption closed; anything else is a bug and propagates. */
function unavailable(e: unknown): 'unavailable' {
  if (e instanceof StoreUnavailableError) return 'unavailable';
  throw e;
}

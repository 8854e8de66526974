import { type Store, StoreUnavailableError } from '../../store/Store.js';
import type { KeyRing } from '../token/keys.js';
import { readToken } from '../token/readToken.js';
import { SESSION_TOKEN_TYP } from './issueSessionToken.js';
import { createdAtOf } from '../challenge/challengeIdBytes.js';
import { bindingFromAddress } from '../rateLimit.js';
import type { InputType } from '../scoring/ScoringTable.js';
import { isReasonClaim } from '../scoring/reasons/reasonClaim.js';
import { SOLVE_METHODS, type SolveMethod } from '../token/solveMethod.js';

const INPUT_TYPES: ReadonlySet<string> = new Set<InputType>(['mouse', 'touch', 'pen', 'keyboard']);
const METHODS: ReadonlySet<string> = new Set<SolveMethod>(SOLVE_METHODS);

/** The claims of an authenticated session token. */
export interface SessionClaims {
  challenge_id: string;
  session_id: string;
  site_key: string;
  jti: string;
  iat: number;
  exp: number;
  score: number;
  /** Reason codes of a low score, as places in REASON_CODES (reasonClaim); absent when none. */
  rsn?: number[];
  /** The input type /verify inferred from the events; absent in tokens minted before it was added. */
  input_type?: InputType;
  /** How the server judged the solve; absent in tokens minted before it was added. */
  method?: SolveMethod;
  hostname: string;
  /** The solving client's address ('' when unknown; absent in tokens minted before it was recorded). */
  ip?: string;
  /** The action of a reCAPTCHA v3 execute (issueSessionToken); absent for every other solve. */
  act?: string;
}

/** Why a session token does not verify. */
export type RedeemErrorCode =
  | 'invalid_token'
  | 'site_key_mismatch'
  | 'session_mismatch'
  | 'token_expired'
  | 'remoteip_mismatch'
  | 'token_already_used'
  | 'store_unavailable';

/** What the redeemer expects of the token beyond its session. */
export interface RedeemExpectations {
  /** Every one must be the token's site (the caller's site, the `sitekey` it names). */
  siteKeys?: readonly string[];
  /** A retry with the same key within the token's life gets the first answer again. */
  idempotencyKey?: string | undefined;
  /** The address the caller saw the user at; compared with the solving address. */
  remoteIp?: string | undefined;
  /** Refuse (remoteip_mismatch) instead of only reporting a different address. */
  rejectRemoteIpMismatch?: boolean;
}

export type RedeemResult =
  | {
      ok: true;
      claims: SessionClaims;
      /** Whether `remoteIp` differs from the solving address; undefined when either is unknown. */
      remoteIpMismatch: boolean | undefined;
    }
  | { ok: false; code: RedeemErrorCode };

/**
 * In place of a session id: the caller has none to compare (the reCAPTCHA, hCaptcha and
 * Turnstile shapes of siteverify, whose widgets keep their session id to themselves). Only the
 * site and single use then bind the token; an explicit value, so that a forgotten session id is
 * a type error rather than a skipped check.
 */
export const UNBOUND_SESSION: unique symbol = Symbol('unbound session');

/** Store key prefix of a redeemed token's id. */
const JTI_MARKER = 'token:';

/**
 * The one verification of a session token, under both /siteverify and verifyToken.
 * Order: authenticity (format, HS256, MAC, typ) -> site -> bound session (unless UNBOUND_SESSION) -> expiry -> remote
 * address (when refused on mismatch) -> single use. The token is spent only when every earlier
 * check passed, so a wrong site, a wrong session or a forged token cannot burn someone else's
 * token; a full store refuses (fail closed). Single use is one atomic `consume` tagged with the
 * idempotency key: a retry carrying the same key finds the marker with its tag (`again`) and gets
 * the same answer, which follows from the claims alone; anything else finds it `used`.
 */
export async function redeemSessionToken(
  deps: { ring: KeyRing; store: Store; now: number },
  token: string,
  sessionId: string | typeof UNBOUND_SESSION,
  expect: RedeemExpectations = {},
): Promise<RedeemResult> {
  const read = readToken(token, deps.ring, SESSION_TOKEN_TYP);
  if (!read.ok) return { ok: false, code: 'invalid_token' };
  const claims = read.claims;
  if (!isSessionClaims(claims)) return { ok: false, code: 'invalid_token' };
  if (expect.siteKeys?.some((k) => k !== claims.site_key)) return { ok: false, code: 'site_key_mismatch' };
  if (sessionId !== UNBOUND_SESSION && claims.session_id !== sessionId) return { ok: false, code: 'session_mismatch' };
  const expiresAt = claims.exp * 1000;
  if (deps.now >= expiresAt) return { ok: false, code: 'token_expired' };
  const remoteIpMismatch = addressesDiffer(expect.remoteIp, claims.ip);
  if (remoteIpMismatch === true && expect.rejectRemoteIpMismatch === true) return { ok: false, code: 'remoteip_mismatch' };
  // The challenge's creation (ms, in its id) is the earliest the token can have been minted.
  const issuedAt = createdAtOf(claims.challenge_id);
  if (issuedAt === undefined) return { ok: false, code: 'invalid_token' };
  const use = await deps.store.consume(JTI_MARKER + claims.jti, { issuedAt, expiresAt }, expect.idempotencyKey).catch(unavailable);
  if (use === 'used') return { ok: false, code: 'token_already_used' };
  if (use === 'full' || use === 'unavailable') return { ok: false, code: 'store_unavailable' };
  return { ok: true, claims, remoteIpMismatch };
}

/** Two addresses of one client compare by rate-limit binding (an IPv6 /64, IPv4-mapped forms). */
function addressesDiffer(given: string | undefined, solving: string | undefined): boolean | undefined {
  if (given === undefined || given === '' || solving === undefined || solving === '') return undefined;
  return bindingFromAddress(given) !== bindingFromAddress(solving);
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
    (c.rsn === undefined || isReasonClaim(c.rsn)) &&
    typeof c.hostname === 'string' &&
    (c.input_type === undefined || (typeof c.input_type === 'string' && INPUT_TYPES.has(c.input_type))) &&
    (c.method === undefined || (typeof c.method === 'string' && METHODS.has(c.method))) &&
    (c.ip === undefined || typeof c.ip === 'string') &&
    (c.act === undefined || typeof c.act === 'string')
  );
}

/** A store that cannot answer fails the redemption closed; anything else is a bug and propagates. */
function unavailable(e: unknown): 'unavailable' {
  if (e instanceof StoreUnavailableError) return 'unavailable';
  throw e;
}

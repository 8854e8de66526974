import { timingSafeEqual } from 'node:crypto';
import { hmacKey } from './HmacKey.js';
import type { KeyRing, SigningKey } from './keys.js';

/** Longest token accepted, in characters; anything longer is refused before any work. */
export const MAX_TOKEN_LENGTH = 4096;
/** Longest encoded header accepted ({alg, typ, kid} is about 60). */
const MAX_HEADER_LENGTH = 256;
/** Encoded length of a 32-byte HMAC-SHA256 in unpadded base64url. */
const MAC_LENGTH = 43;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

export type ReadTokenResult = { ok: true; claims: Record<string, unknown> } | { ok: false; code: 'invalid_token' };

const INVALID: ReadTokenResult = { ok: false, code: 'invalid_token' };

/**
 * Authenticates a token made by signToken and returns its claims when it is well formed, its
 * header says HS256, its MAC matches one key of `ring` (the key named by `kid` first), and its
 * `typ` claim equals `typ`. Expiry and use are the caller's checks.
 */
export function readToken(token: string, ring: KeyRing, typ: string): ReadTokenResult {
  if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) return INVALID;
  const dot1 = token.indexOf('.');
  const dot2 = token.indexOf('.', dot1 + 1);
  if (dot1 < 0 || dot2 < 0 || token.includes('.', dot2 + 1)) return INVALID;
  const header = token.slice(0, dot1);
  const mac = token.slice(dot2 + 1);
  if (header.length > MAX_HEADER_LENGTH || mac.length !== MAC_LENGTH) return INVALID;
  const kid = kidOfHeader(header);
  if (kid === INVALID_HEADER) return INVALID;

  const given = Buffer.from(mac, 'base64url');
  // Also refuses characters outside base64url, and a non-canonical last character (it decodes
  // to the same bytes): one token, one text. The payload needs no such check: the MAC covers
  // its exact text, and it is decoded only once authenticated.
  if (given.toString('base64url') !== mac) return INVALID;
  const signingInput = token.slice(0, dot2);
  if (!anyKeyMatches(ring, kid, signingInput, given)) return INVALID;
  rememberHeader(header, kid);

  const claims = decodeJsonObject(token.slice(dot1 + 1, dot2));
  if (claims === undefined || claims.typ !== typ) return INVALID;
  return { ok: true, claims };
}

const INVALID_HEADER = Symbol('invalid header');

/**
 * Headers of authenticated tokens -> their kid. Real tokens carry one header per signing key,
 * so recognising its text saves decoding it; only a header under a valid MAC gets in.
 */
const knownHeaders = new Map<string, string | undefined>();
const MAX_KNOWN_HEADERS = 16;

function rememberHeader(header: string, kid: string | undefined): void {
  if (knownHeaders.size < MAX_KNOWN_HEADERS && !knownHeaders.has(header)) knownHeaders.set(header, kid);
}

/** The kid of an acceptable header (undefined when it names none), or INVALID_HEADER. */
function kidOfHeader(header: string): string | undefined | typeof INVALID_HEADER {
  if (knownHeaders.has(header)) return knownHeaders.get(header);
  if (!BASE64URL.test(header)) return INVALID_HEADER;
  const head = decodeJsonObject(header);
  if (head === undefined || head.alg !== 'HS256') return INVALID_HEADER;
  if (head.typ !== undefined && head.typ !== 'JWT') return INVALID_HEADER;
  if (head.kid !== undefined && typeof head.kid !== 'string') return INVALID_HEADER;
  return head.kid;
}

/** Tries the keys named by `kid` first, then every other key (a kid is a hint, not a trust anchor). */
function anyKeyMatches(ring: KeyRing, kid: string | undefined, signingInput: string, given: Buffer): boolean {
  for (const key of ring.all) {
    if (key.kid === kid && macMatches(key, signingInput, given)) return true;
  }
  for (const key of ring.all) {
    if (key.kid !== kid && macMatches(key, signingInput, given)) return true;
  }
  return false;
}

function macMatches(key: SigningKey, signingInput: string, given: Buffer): boolean {
  return timingSafeEqual(Buffer.from(hmacKey(key.value).digest(signingInput, 'hex'), 'hex'), given);
}

function decodeJsonObject(part: string): Record<string, unknown> | undefined {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  return value as Record<string, unknown>;
}

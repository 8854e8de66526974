import { timingSafeEqual } from 'node:crypto';
import { type Failure, failure } from '../errors.js';
import type { Site } from '../sites/Site.js';
import { type ChallengeLives, acceptedLifeMs, longestLifeMs } from './challengeLife.js';
import { surgeDigest } from '../keyboard/keyboardDoorOf.js';
import { BODY_END, MAC24_HEX, MAC_END, bodyMac, parseId, readStamp, siteTag } from './challengeIdBytes.js';

/** An id this server issued, with the key that authenticated it and what it carries. */
export interface AuthenticChallenge {
  id: string;
  bytes: Buffer;
  key: Buffer;
  /** The body MAC (hex): the derived values come from it (deriveChallenge.ts). */
  mac: string;
  createdAt: number;
  /** The `expires_at` it was issued with (creation + CHALLENGE_TTL_MS): what the client signs. */
  expiresAt: number;
  /** Until when it is accepted for this solve (challengeLife.ts). */
  acceptedUntil: number;
  /** Until when any solve of it could be accepted: how long its single-use markers must live. */
  spentUntil: number;
  /** The proof-of-work difficulty it was issued with. */
  powDifficulty: number;
  /** Issued in a keyboard surge (its site tag binds surgeDigest): a keyboard solve owes the surge's proof of work and the strict model. */
  keyboardSurge: boolean;
}

/** Ids claiming a creation time further ahead than this are refused (clock skew allowance). */
const MAX_FUTURE_MS = 60_000;

/**
 * Checks, in order: the id is well formed and its MAC verifies under one of `keys`
 * (challenge_not_found); it was issued for `site` under its current policy, as such or in a keyboard
 * surge (then `keyboardSurge`: keyboard/keyboardDoorOf.ts, surgeDigest) (site_key_mismatch;
 * under one of the site's retired policies: challenge_expired, "site policy changed"; skipped
 * when `site` is undefined, for requests bound to the site by a ticket instead); it is not from
 * the future (challenge_not_found) and not expired (challenge_expired): accepted for a
 * keyboard solve (`keyboard`) for longer than for a pointer one (challengeLife.ts).
 */
export function authenticateChallengeId(
  keys: readonly Buffer[],
  id: string,
  site: Pick<Site, 'key' | 'digest' | 'retired'> | undefined,
  now: number,
  lives: ChallengeLives,
  keyboard: boolean,
): { ok: true; challenge: AuthenticChallenge } | { ok: false; failure: Failure } {
  const bytes = parseId(id);
  if (bytes === undefined) return { ok: false, failure: failure('challenge_not_found') };
  const shown = bytes.subarray(BODY_END, MAC_END);
  let key: Buffer | undefined;
  let mac = '';
  for (const k of keys) {
    mac = bodyMac(k, bytes);
    if (timingSafeEqual(Buffer.from(mac.slice(0, MAC24_HEX), 'hex'), shown)) {
      key = k;
      break;
    }
  }
  if (key === undefined) return { ok: false, failure: failure('challenge_not_found') };
  let keyboardSurge = false;
  if (site !== undefined) {
    const tag = bytes.subarray(MAC_END);
    const tagFor = (policy: string) => timingSafeEqual(Buffer.from(siteTag(key, bytes, site.key, policy), 'hex'), tag);
    if (!tagFor(site.digest)) {
      keyboardSurge = tagFor(surgeDigest(site.digest));
      const retired = !keyboardSurge && site.retired.some((d) => tagFor(d) || tagFor(surgeDigest(d)));
      if (!keyboardSurge)
        return { ok: false, failure: retired ? failure('challenge_expired', 'site policy changed') : failure('site_key_mismatch') };
    }
  }
  const { createdAt, powDifficulty } = readStamp(bytes);
  if (createdAt > now + MAX_FUTURE_MS) return { ok: false, failure: failure('challenge_not_found') };
  const acceptedUntil = createdAt + acceptedLifeMs(lives, keyboard);
  if (now > acceptedUntil) return { ok: false, failure: failure('challenge_expired') };
  const expiresAt = createdAt + lives.challengeTtlMs;
  return {
    ok: true,
    challenge: {
      id,
      bytes,
      key,
      mac,
      createdAt,
      expiresAt,
      acceptedUntil,
      spentUntil: createdAt + longestLifeMs(lives),
      powDifficulty,
      keyboardSurge,
    },
  };
}

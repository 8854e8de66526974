import { fillRandom } from '../token/randomPool.js';
import { BODY_END, ID_BYTES, MAC24_HEX, bodyMac, formatId, siteTag, writeStamp } from './challengeIdBytes.js';

/** What an id binds: its site and that site's policy digest, its creation time and difficulty. */
export interface IdClaims {
  siteKey: string;
  /** policyDigest of the site's policy when issued. */
  policy: string;
  createdAt: number;
  powDifficulty: number;
}

/**
 * A fresh self-authenticating challenge id (see challengeIdBytes.ts) with its body MAC (from
 * which deriveChallenge.ts reads the challenge's values).
 */
export function mintChallengeId(key: Buffer, claims: IdClaims): { id: string; bytes: Buffer; mac: string } {
  const bytes = Buffer.allocUnsafe(ID_BYTES);
  writeStamp(bytes, claims.createdAt, claims.powDifficulty);
  fillRandom(bytes, 6, BODY_END);
  const mac = bodyMac(key, bytes);
  const tail = mac.slice(0, MAC24_HEX) + siteTag(key, bytes, claims.siteKey, claims.policy);
  bytes.write(tail, BODY_END, 'hex');
  return { id: formatId(bytes.toString('hex', 0, BODY_END) + tail), bytes, mac };
}

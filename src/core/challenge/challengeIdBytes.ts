/**
 * Layout of a challenge id: 16 bytes shown as UUID-shaped lowercase hex (8-4-4-4-12).
 *   0..5   a 48-bit big-endian stamp: the top 6 bits are the proof-of-work difficulty (0..63),
 *          the low 42 bits created_at in ms (enough until the year 2109)
 *   6..10  random
 *   11..13 MAC24 = HMAC-SHA256(k_challenge, bytes 0..10)[0..3]
 *   14..15 site tag = HMAC-SHA256(k_challenge, bytes 0..10 || 0x00 || site_key || 0x00 || policy digest)[0..2]
 * The MAC24 covers the difficulty, so the one a client must meet is the one it was issued, with
 * nothing stored. The site tag binds the site and the digest of its policy (sites/SitePolicy.ts):
 * /verify recomputes it under the site's current policy, so a challenge is never judged by a
 * policy it was not issued under (maze size, probes, passkeys, scoring). The other 29 bytes of the
 * MAC24 HMAC are never sent: the values derived from the id come from them (deriveChallenge.ts),
 * so issuing a challenge costs two HMACs.
 */
import { hmacKey } from '../token/HmacKey.js';

export const ID_BYTES = 16;
export const BODY_END = 11;
export const MAC_END = 14;
/** Hex digits of MAC24 at the start of the body MAC. */
export const MAC24_HEX = 6;
/** Highest difficulty the stamp can carry. */
export const MAX_STAMPED_DIFFICULTY = 63;

const TIME_BITS = 2 ** 42;
const ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ZERO = new Uint8Array(1);

/** HMAC-SHA256(k_challenge, bytes 0..10) of an id, as 64 hex digits: MAC24, then the derived values. */
export function bodyMac(key: Buffer, id: Buffer): string {
  return hmacKey(key).digest(id.subarray(0, BODY_END), 'hex');
}

/** Site tag of an id for `siteKey` under the policy with digest `policy`, as 4 hex digits. */
export function siteTag(key: Buffer, id: Buffer, siteKey: string, policy: string): string {
  return hmacKey(key)
    .digest([id.subarray(0, BODY_END), ZERO, siteKey, ZERO, policy], 'hex')
    .slice(0, 4);
}

/** Writes the stamp (difficulty and creation time) into bytes 0..5. */
export function writeStamp(id: Buffer, createdAt: number, powDifficulty: number): void {
  id.writeUIntBE(powDifficulty * TIME_BITS + createdAt, 0, 6);
}

/** The creation time (epoch ms) and difficulty in an id's stamp. */
export function readStamp(id: Buffer): { createdAt: number; powDifficulty: number } {
  const stamp = id.readUIntBE(0, 6);
  return { createdAt: stamp % TIME_BITS, powDifficulty: Math.floor(stamp / TIME_BITS) };
}

/** The UUID-shaped text of an id's 32 hex digits. */
export function formatId(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** The 16 bytes of a well-formed id, or undefined. */
export function parseId(text: string): Buffer | undefined {
  if (!ID_PATTERN.test(text)) return undefined;
  return Buffer.from(text.replaceAll('-', ''), 'hex');
}

/** The creation time (epoch ms) an id carries in the clear, or undefined for a malformed id. */
export function createdAtOf(text: string): number | undefined {
  const bytes = parseId(text);
  return bytes === undefined ? undefined : readStamp(bytes).createdAt;
}

/**
 * Layout of a challenge id: 16 bytes shown as UUID-shaped lowercase hex (8-4-4-4-12).
 *   0..5   created_at, ms, 48-bit big-endian
 *   6..10  random
 *   11..13 MAC24 = HMAC-SHA256(k_challenge, bytes 0..10)[0..3]
 *   14..15 site tag = HMAC-SHA256(k_challenge, bytes 0..10 || 0x00 || site_key)[0..2]
 * The other 29 bytes of the MAC24 HMAC are never sent: the values derived from the id come
 * from them (deriveChallenge.ts), so issuing a challenge costs two HMACs.
 */
import { hmacKey } from '../token/HmacKey.js';

export const ID_BYTES = 16;
export const BODY_END = 11;
export const MAC_END = 14;
/** Hex digits of MAC24 at the start of the body MAC. */
export const MAC24_HEX = 6;

const ID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ZERO = new Uint8Array(1);

/** HMAC-SHA256(k_challenge, bytes 0..10) of an id, as 64 hex digits: MAC24, then the derived values. */
export function bodyMac(key: Buffer, id: Buffer): string {
  return hmacKey(key).digest(id.subarray(0, BODY_END), 'hex');
}

/** Site tag of an id for `siteKey`, as 4 hex digits. */
export function siteTag(key: Buffer, id: Buffer, siteKey: string): string {
  return hmacKey(key).digest([id.subarray(0, BODY_END), ZERO, siteKey], 'hex').slice(0, 4);
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
  return parseId(text)?.readUIntBE(0, 6);
}

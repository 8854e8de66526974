import { type KeyObject, createPublicKey, verify } from 'node:crypto';

const COORDINATE = 32;

// The last key imported, by its public_key text: a key is imported once however many texts of
// one /verify it is checked over (importing costs about as much as a verify). One, not a cache of
// many: each solve brings a key of its own, so a kept key is almost never asked for again, and a
// cache of many keeps every key (and about 1.4 KiB of native memory) alive long enough to be
// promoted to the old generation, where only a full collection frees it.
let last: { encoded: string; key: KeyObject } | undefined;

/** A coordinate of fewer than 32 bytes, left-padded with zeros, as base64url. */
const padded = (c: Buffer) => (c.length === COORDINATE ? c : Buffer.concat([Buffer.alloc(COORDINATE - c.length), c])).toString('base64url');

/**
 * The P-256 key of a public_key field (standard base64 of a JWK's JSON), or undefined.
 * createPublicKey checks the point is on the curve (enough with cofactor 1); measured here it
 * imports in about 130-160 us where WebCrypto's raw import takes 165-210 us (its argument
 * normalisation and CryptoKey wrapping cost more than the point check).
 */
function importKey(encoded: string): KeyObject | undefined {
  if (last?.encoded === encoded) return last.key;
  let key: KeyObject;
  try {
    const jwk = JSON.parse(Buffer.from(encoded, 'base64').toString('utf8')) as {
      kty?: unknown;
      crv?: unknown;
      x?: unknown;
      y?: unknown;
    } | null;
    if (jwk === null || jwk.kty !== 'EC' || jwk.crv !== 'P-256' || typeof jwk.x !== 'string' || typeof jwk.y !== 'string') return undefined;
    const x = Buffer.from(jwk.x, 'base64url');
    const y = Buffer.from(jwk.y, 'base64url');
    if (x.length > COORDINATE || y.length > COORDINATE) return undefined;
    key = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: padded(x), y: padded(y) }, format: 'jwk' });
  } catch {
    return undefined;
  }
  last = { encoded, key };
  return key;
}

/**
 * Whether `signature` (standard base64 of raw r || s) by `publicKey` (standard base64 of a P-256
 * JWK's JSON) verifies over `text` by ECDSA P-256 / SHA-256, on the calling thread.
 */
export function checkP256(publicKey: string, signature: string, text: string): boolean {
  try {
    const key = importKey(publicKey);
    return key !== undefined && verify('sha256', Buffer.from(text), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64'));
  } catch {
    return false;
  }
}

import type { SignatureVerifier } from './SignatureVerifier.js';

/**
 * kernel.md section 6: `signature` (standard base64 of raw r || s) by `public_key` (standard
 * base64 of a P-256 JWK's JSON) over the first text of `texts` that verifies; texts are
 * produced lazily, in the order tried, so a later text is made and checked only when the
 * earlier ones fail. The key is imported once (checkP256 keeps it).
 */
export async function checkSignature(
  verifier: SignatureVerifier,
  publicKey: string,
  signature: string,
  texts: Iterable<string>,
): Promise<boolean> {
  // r || s of P-256 is 64 bytes: anything else cannot verify.
  if (Buffer.from(signature, 'base64').length !== 64) return false;
  for (const text of texts) {
    // An inline check answers at once: awaited only when it is a promise (a worker's).
    const valid = verifier.check(publicKey, signature, text);
    if (valid === true || (valid !== false && (await valid))) return true;
  }
  return false;
}

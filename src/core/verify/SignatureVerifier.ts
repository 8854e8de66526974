/**
 * Where /verify's ECDSA checks run: on the serving thread (inlineSignatureVerifier) or on a
 * signature worker (signatureWorker); signatureVerifierFor picks one at start-up.
 */
export interface SignatureVerifier {
  /** Whether `signature` (standard base64 of raw r || s) by `publicKey` verifies over `text`. */
  check(publicKey: string, signature: string, text: string): boolean | Promise<boolean>;
}

import type { SignatureVerifier } from './SignatureVerifier.js';
import { checkP256 } from './checkP256.js';

/** Checks on the serving thread: no message round trip, the serving thread pays the ECDSA. */
export const inlineSignatureVerifier: SignatureVerifier = { check: checkP256 };

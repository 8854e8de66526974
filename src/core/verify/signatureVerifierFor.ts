import type { SignatureVerifier } from './SignatureVerifier.js';
import { inlineSignatureVerifier } from './inlineSignatureVerifier.js';
import { signatureWorker } from './signatureWorker.js';

/**
 * The checks' place for a process of `servingThreads` (WORKERS) on `cores` cores. With a serving
 * thread per core a signature worker has no idle core to run on, so its round trip is pure cost
 * and the checks run inline; with fewer, a worker takes the ECDSA to a core otherwise idle.
 */
export function signatureVerifierFor(servingThreads: number, cores: number): SignatureVerifier {
  return servingThreads >= cores ? inlineSignatureVerifier : signatureWorker;
}

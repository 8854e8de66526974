import { describe, expect, it } from 'vitest';
import { inlineSignatureVerifier } from '../../../src/core/verify/inlineSignatureVerifier.js';
import { signatureVerifierFor } from '../../../src/core/verify/signatureVerifierFor.js';
import { signatureWorker } from '../../../src/core/verify/signatureWorker.js';

describe('signatureVerifierFor', () => {
  it('checks inline with a serving thread per core or more, on the worker with fewer', () => {
    expect(signatureVerifierFor(1, 1)).toBe(inlineSignatureVerifier);
    expect(signatureVerifierFor(2, 2)).toBe(inlineSignatureVerifier);
    expect(signatureVerifierFor(4, 2)).toBe(inlineSignatureVerifier);
    expect(signatureVerifierFor(1, 2)).toBe(signatureWorker);
    expect(signatureVerifierFor(3, 16)).toBe(signatureWorker);
  });
});

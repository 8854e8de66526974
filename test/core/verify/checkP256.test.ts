import * as crypto from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { ecKeyPair } from '../../helpers/ecKeyPair.js';

vi.mock('node:crypto', async (original) => {
  const actual = await original<typeof crypto>();
  return { ...actual, createPublicKey: vi.fn(actual.createPublicKey) };
});

const { checkSignature } = await import('../../../src/core/verify/checkSignature.js');
const { inlineSignatureVerifier } = await import('../../../src/core/verify/inlineSignatureVerifier.js');

function signed(text: string) {
  const { privateKey, jwk } = ecKeyPair();
  const encoded = Buffer.from(JSON.stringify(jwk)).toString('base64');
  return {
    encoded,
    signature: crypto.sign('sha256', Buffer.from(text), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64'),
  };
}

describe('checkP256', () => {
  it.each([
    ['verifies over the second text', 'second', true],
    ['verifies over neither', 'neither', false],
  ])('imports a key once when it %s', async (_, signedText, valid) => {
    const imports = vi.mocked(crypto.createPublicKey);
    const k = signed(signedText);
    imports.mockClear();
    expect(await checkSignature(inlineSignatureVerifier, k.encoded, k.signature, ['first', 'second'])).toBe(valid);
    expect(imports).toHaveBeenCalledTimes(1);
  });
});

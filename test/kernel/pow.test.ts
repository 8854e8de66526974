import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { getKernel } from './helpers/kernel.js';

const MAX_SAFE = Number.MAX_SAFE_INTEGER;
const hashOf = (challenge: string, nonce: number) =>
  createHash('sha256')
    .update(challenge + String(nonce), 'utf8')
    .digest();
function zeros(d: Buffer): number {
  let bits = 0;
  while (bits < 256 && ((d[bits >> 3]! >> (7 - (bits & 7))) & 1) === 0) bits++;
  return bits;
}
/** The first nonce in [from, from + batch) meeting `difficulty`, by node:crypto. */
function firstNonce(challenge: string, difficulty: number, from: number, batch: number): number | null {
  for (let n = from; n < from + batch && n <= MAX_SAFE; n++) if (zeros(hashOf(challenge, n)) >= difficulty) return n;
  return null;
}

describe('checkPow', () => {
  it('hashes challenge + decimal nonce like node:crypto, for challenge lengths 0..140', async () => {
    const k = await getKernel();
    const nonces = [0, 7, 9, 10, 99, 100, 12345, 4294967296, 999999999999999, MAX_SAFE];
    for (let len = 0; len <= 140; len++) {
      const challenge = randomBytes(70).toString('hex').slice(0, len);
      for (const nonce of nonces) {
        const expected = hashOf(challenge, nonce);
        const r = k.checkPow(challenge, nonce, 0);
        expect(r.hash, `len ${len} nonce ${nonce}`).toBe(expected.toString('hex'));
        expect(r.leadingZeroBits).toBe(zeros(expected));
        expect(r.valid).toBe(true);
      }
    }
  });

  it('encodes a non-ASCII challenge as UTF-8', async () => {
    const k = await getKernel();
    for (const challenge of ['é', 'ø'.repeat(40), '迷宫'.repeat(30), '🧵 ariadne']) {
      expect(k.checkPow(challenge, 42, 0).hash).toBe(hashOf(challenge, 42).toString('hex'));
    }
  });

  it('compares leading zero bits with the difficulty', async () => {
    const k = await getKernel();
    const challenge = 'a3f1';
    const nonce = firstNonce(challenge, 10, 0, 1 << 16)!;
    const bits = zeros(hashOf(challenge, nonce));
    expect(k.checkPow(challenge, nonce, bits).valid).toBe(true);
    expect(k.checkPow(challenge, nonce, bits + 1).valid).toBe(false);
    expect(k.checkPow(challenge, nonce, 256).valid).toBe(false);
    expect(k.checkPow(challenge, nonce, 0).valid).toBe(true);
  });
});

describe('solvePow', () => {
  it('finds the first nonce that checkPow and node:crypto accept', async () => {
    const k = await getKernel();
    for (let i = 0; i < 5; i++) {
      const challenge = randomBytes(32).toString('hex');
      const r = k.solvePow(challenge, 12, 0, 1 << 20);
      expect(r.nonce).toBe(firstNonce(challenge, 12, 0, 1 << 20));
      expect(r.hash).toBe(hashOf(challenge, r.nonce!).toString('hex'));
      expect(r.next).toBe(r.nonce! + 1);
      expect(zeros(hashOf(challenge, r.nonce!))).toBeGreaterThanOrEqual(12);
      expect(k.checkPow(challenge, r.nonce!, 12)).toEqual({
        valid: true,
        hash: r.hash,
        leadingZeroBits: zeros(hashOf(challenge, r.nonce!)),
      });
    }
  });

  it('resumes in batches to the same nonce as one long search', async () => {
    const k = await getKernel();
    const challenge = randomBytes(32).toString('hex');
    const whole = k.solvePow(challenge, 10, 0, 1 << 20);
    let from = 0;
    let found: number | null = null;
    for (let round = 0; round < 10_000 && found === null; round++) {
      const r = k.solvePow(challenge, 10, from, 97);
      if (r.nonce === null) expect(r.next).toBe(from + 97);
      found = r.nonce;
      from = r.next;
    }
    expect(found).toBe(whole.nonce);
  });

  it('carries the decimal nonce across digit-count changes', async () => {
    const k = await getKernel();
    const challenge = 'c'.repeat(50); // 50 + digits crosses the one-block tail at 6 digits
    for (const from of [0, 5, 95, 995, 99_990, 999_980, 9_999_999_999_990]) {
      const r = k.solvePow(challenge, 3, from, 40);
      expect(r.nonce, `from ${from}`).toBe(firstNonce(challenge, 3, from, 40));
    }
    // Every nonce of a range hashes right: difficulty 0 returns `from` itself.
    for (const from of [9, 99, 999_999, MAX_SAFE]) expect(k.solvePow(challenge, 0, from, 1).nonce).toBe(from);
  });

  it('stops at 2^53 - 1 and reports where the range ends', async () => {
    const k = await getKernel();
    const r = k.solvePow('ff', 256, MAX_SAFE - 3, 1000);
    expect(r).toEqual({ nonce: null, hash: null, next: MAX_SAFE + 1 });
  });

  it('returns null with the next start when a batch has no solution', async () => {
    const k = await getKernel();
    expect(k.solvePow('00', 200, 0, 500)).toEqual({ nonce: null, hash: null, next: 500 });
  });
});

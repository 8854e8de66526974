// The widget's proof-of-work search goes on past the base difficulty to the keyboard one in a
// single nonce sequence, reporting each as soon as it is met.
import { beforeAll, describe, expect, it } from 'vitest';
import { hexZeroBits, powProgress, searchPow, type PowFound } from '../../src/client/powSearch.js';
import { loadKernel, type Kernel } from '../../src/kernel/index.js';

let kernel: Kernel;
beforeAll(async () => {
  kernel = await loadKernel();
});

/** The first nonce from 0 meeting `difficulty`, by brute force with the kernel's check. */
function firstNonce(challenge: string, difficulty: number): number {
  for (let n = 0; ; n++) if (kernel.checkPow(challenge, n, difficulty).valid) return n;
}

describe('searchPow', () => {
  it('finds the first nonce of each difficulty, lowest first, in one pass', async () => {
    for (const challenge of ['a1b2c3', 'ffee00', '0123456789abcdef']) {
      const found: [number, PowFound][] = [];
      let tried = 0;
      await searchPow(
        kernel,
        challenge,
        [9, 6],
        () => false,
        (t) => (tried = t),
        (d, p) => found.push([d, p]),
      );
      expect(found.map(([d]) => d)).toEqual([6, 9]);
      for (const [d, p] of found) {
        expect(p.nonce).toBe(firstNonce(challenge, d));
        expect(kernel.checkPow(challenge, p.nonce, d)).toMatchObject({ valid: true, hash: p.hash });
        expect(hexZeroBits(p.hash)).toBeGreaterThanOrEqual(d);
      }
      // One pass: nothing beyond the nonce of the highest difficulty was hashed.
      expect(tried).toBe(found.at(-1)![1].nonce + 1);
    }
  });

  it('reports one nonce for several difficulties when it meets them all, and equal ones once', async () => {
    const challenge = 'a1b2c3';
    const n4 = firstNonce(challenge, 4);
    const bits = kernel.checkPow(challenge, n4, 0).leadingZeroBits;
    const found: [number, number][] = [];
    await searchPow(
      kernel,
      challenge,
      [4, 4, bits],
      () => false,
      () => {},
      (d, p) => found.push([d, p.nonce]),
    );
    expect(found).toEqual(
      bits > 4
        ? [
            [4, n4],
            [bits, n4],
          ]
        : [[4, n4]],
    );
  });

  it('stops when cancelled, without reporting', async () => {
    const found: number[] = [];
    let calls = 0;
    await searchPow(
      kernel,
      'a1b2c3',
      [40],
      () => ++calls > 3,
      () => {},
      (d) => found.push(d),
    );
    expect(found).toEqual([]);
    expect(calls).toBe(4);
  });

  it('counts leading zero bits of a hex digest', () => {
    expect(hexZeroBits('f' + '0'.repeat(63))).toBe(0);
    expect(hexZeroBits('1' + '0'.repeat(63))).toBe(3);
    expect(hexZeroBits('00' + '7f'.repeat(31))).toBe(9);
    expect(hexZeroBits('0'.repeat(64))).toBe(256);
  });
});

describe('powProgress (the widget bar while the proof of work runs)', () => {
  it("scales with the challenge's difficulty: the expected work of each difficulty shows the same share", () => {
    for (const d of [4, 10, 18, 22, 26]) {
      expect(powProgress(0, d)).toBe(0);
      expect(powProgress(2 ** d, d)).toBeCloseTo(1 - Math.exp(-1), 12);
      expect(powProgress(2 ** (d + 3), d)).toBeGreaterThan(0.999);
    }
  });

  it('a harder (adaptive) challenge shows less progress for the same work', () => {
    const tried = 2 ** 18;
    expect(powProgress(tried, 19)).toBeLessThan(powProgress(tried, 18));
    expect(powProgress(tried, 22)).toBeCloseTo(1 - Math.exp(-1 / 16), 12);
  });
});

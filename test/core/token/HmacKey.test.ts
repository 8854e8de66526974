import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { HmacKey, hmacKey } from '../../../src/core/token/HmacKey.js';

const reference = (key: string | Buffer, parts: (string | Uint8Array)[], encoding: 'hex' | 'base64url') => {
  const h = createHmac('sha256', key);
  for (const p of parts) h.update(p);
  return h.digest(encoding);
};

describe('HmacKey', () => {
  it('equals createHmac for keys shorter than, equal to and longer than a block', () => {
    for (const key of [
      Buffer.alloc(0),
      randomBytes(1),
      randomBytes(32),
      randomBytes(64),
      randomBytes(65),
      randomBytes(200),
      'clé secrète ✓',
      'x'.repeat(100),
    ]) {
      for (const length of [0, 1, 55, 56, 63, 64, 65, 119, 120, 300]) {
        const message = randomBytes(length);
        expect(new HmacKey(key).digest(message, 'hex')).toBe(reference(key, [message], 'hex'));
        expect(new HmacKey(key).digest(message, 'base64url')).toBe(reference(key, [message], 'base64url'));
      }
    }
  });

  it('MACs the concatenation of its parts, strings as UTF-8', () => {
    const key = randomBytes(32);
    const parts = [randomBytes(11), new Uint8Array([0]), 'sïte-kéy ✓', '', 'tail'];
    expect(new HmacKey(key).digest(parts, 'hex')).toBe(reference(key, parts, 'hex'));
  });

  it('handles messages far longer than its scratch memory, then short ones again', () => {
    const key = 'k'.repeat(32);
    const mac = new HmacKey(key);
    const long = 'é'.repeat(50_000);
    expect(mac.digest(long, 'hex')).toBe(reference(key, [long], 'hex'));
    const bytes = randomBytes(5000);
    expect(mac.digest([bytes, long], 'base64url')).toBe(reference(key, [bytes, long], 'base64url'));
    expect(mac.digest('short', 'hex')).toBe(reference(key, ['short'], 'hex'));
  });

  it('keys do not share state: interleaved MACs stay correct', () => {
    const a = hmacKey('key-a');
    const b = hmacKey(Buffer.from('key-b'));
    expect(a.digest('m', 'hex')).toBe(reference('key-a', ['m'], 'hex'));
    expect(b.digest('m', 'hex')).toBe(reference('key-b', ['m'], 'hex'));
    expect(a.digest('m', 'hex')).toBe(reference('key-a', ['m'], 'hex'));
    expect(hmacKey('key-a')).toBe(a);
  });
});

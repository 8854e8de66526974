import { createHash, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checkSignature } from '../../../src/core/verify/checkSignature.js';
import { inlineSignatureVerifier } from '../../../src/core/verify/inlineSignatureVerifier.js';
import { signatureWorker } from '../../../src/core/verify/signatureWorker.js';
import { eventsDigest } from '../../../src/core/verify/eventsDigest.js';
import { ecKeyPair } from '../../helpers/ecKeyPair.js';

function keyPair() {
  const { privateKey, jwk } = ecKeyPair();
  return { encoded: Buffer.from(JSON.stringify(jwk)).toString('base64'), privateKey };
}

const signText = (k: ReturnType<typeof keyPair>, text: string) =>
  sign('sha256', Buffer.from(text), { key: k.privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64');

describe.each([
  ['inline', inlineSignatureVerifier],
  ['on the signature worker', signatureWorker],
])('checkSignature %s', (_, verifier) => {
  it('accepts a signature over any of the texts, tried in order', async () => {
    const k = keyPair();
    expect(await checkSignature(verifier, k.encoded, signText(k, 'one'), ['one', 'two'])).toBe(true);
    expect(await checkSignature(verifier, k.encoded, signText(k, 'two'), ['one', 'two'])).toBe(true);
    expect(await checkSignature(verifier, k.encoded, signText(k, 'three'), ['one', 'two'])).toBe(false);
  });

  it('refuses DER signatures, other keys, other curves and garbage', async () => {
    const k = keyPair();
    const der = sign('sha256', Buffer.from('one'), k.privateKey).toString('base64');
    expect(await checkSignature(verifier, k.encoded, der, ['one'])).toBe(false);
    expect(await checkSignature(verifier, keyPair().encoded, signText(k, 'one'), ['one'])).toBe(false);
    const p384 = ecKeyPair('P-384').jwk;
    expect(await checkSignature(verifier, Buffer.from(JSON.stringify(p384)).toString('base64'), signText(k, 'one'), ['one'])).toBe(false);
    expect(await checkSignature(verifier, '!!!', signText(k, 'one'), ['one'])).toBe(false);
    expect(await checkSignature(verifier, Buffer.from('null').toString('base64'), signText(k, 'one'), ['one'])).toBe(false);
  });

  it('refuses a point off the curve and coordinates longer than 32 bytes, accepts short ones padded', async () => {
    const k = keyPair();
    const jwk = JSON.parse(Buffer.from(k.encoded, 'base64').toString()) as { x: string; y: string };
    const encode = (o: object) => Buffer.from(JSON.stringify({ kty: 'EC', crv: 'P-256', ...o })).toString('base64');
    const y = Buffer.from(jwk.y, 'base64url');
    y[31]! ^= 1;
    expect(await checkSignature(verifier, encode({ x: jwk.x, y: y.toString('base64url') }), signText(k, 'one'), ['one'])).toBe(false);
    const long = Buffer.concat([Buffer.alloc(1), Buffer.from(jwk.x, 'base64url')]).toString('base64url');
    expect(await checkSignature(verifier, encode({ x: long, y: jwk.y }), signText(k, 'one'), ['one'])).toBe(false);
    // A key whose x starts with a zero byte, written without it, is the same key.
    let z = keyPair();
    for (let i = 0; i < 5000 && Buffer.from(JSON.parse(Buffer.from(z.encoded, 'base64').toString()).x, 'base64url')[0] !== 0; i++)
      z = keyPair();
    const zj = JSON.parse(Buffer.from(z.encoded, 'base64').toString()) as { x: string; y: string };
    const short = Buffer.from(zj.x, 'base64url').subarray(1).toString('base64url');
    expect(await checkSignature(verifier, encode({ x: short, y: zj.y }), signText(z, 'one'), ['one'])).toBe(true);
  });

  it('does not compute later texts once one verifies', async () => {
    const k = keyPair();
    let produced = 0;
    function* texts() {
      produced++;
      yield 'one';
      produced++;
      yield 'two';
    }
    expect(await checkSignature(verifier, k.encoded, signText(k, 'one'), texts())).toBe(true);
    expect(produced).toBe(1);
  });
});

describe('eventsDigest', () => {
  it('hashes [t, x, y, type, pointer_type|null, coalesced_count|null] as JSON.stringify writes them', () => {
    const events = [
      { x: 0.1, y: 1e-7, t: 0, type: 'down', pointer_type: 'mouse' },
      { x: 0.30000000000000004, y: 5e21, t: 16.5, type: 'move', coalesced_count: 2, extra: 1 },
    ];
    // Expected text written out by hand: numbers exactly as JavaScript prints them.
    const text = '[[0,0.1,1e-7,"down","mouse",null],[16.5,0.30000000000000004,5e+21,"move",null,2]]';
    expect(eventsDigest(events)).toBe(createHash('sha256').update(text).digest('hex'));
  });

  it('equals the SHA-256 of JSON.stringify over the rows, whatever the numbers and strings', () => {
    const numbers = [0, -0, 1, -1.5, 0.1, 1e21, 1e-7, 5e-324, Number.MAX_VALUE, 123456789.123, Math.PI];
    const types = ['move', 'down', 'up', 'keydown', 'a"b\\c', 'é ✓', '\u2028'];
    const events = Array.from({ length: 200 }, (_, i) => ({
      x: numbers[i % numbers.length]!,
      y: numbers[(i * 7) % numbers.length]!,
      t: i * 16.7,
      type: types[i % types.length]!,
      ...(i % 3 === 0 ? {} : { pointer_type: types[(i + 1) % types.length]! }),
      ...(i % 4 === 0 ? { coalesced_count: i } : {}),
    }));
    const rows = events.map((e) => [e.t, e.x, e.y, e.type, e.pointer_type ?? null, e.coalesced_count ?? null]);
    expect(eventsDigest(events)).toBe(createHash('sha256').update(JSON.stringify(rows)).digest('hex'));
    expect(eventsDigest([])).toBe(createHash('sha256').update('[]').digest('hex'));
  });
});

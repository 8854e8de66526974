import { describe, expect, it } from 'vitest';
import { keyRing } from '../../../src/core/token/keys.js';
import { issueSessionToken } from '../../../src/core/redeem/issueSessionToken.js';
import { siteverify } from '../../../src/core/redeem/siteverify.js';
import { verifyToken } from '../../../src/core/redeem/verifyToken.js';
import { MemoryStore } from '../../../src/store/MemoryStore.js';
import { StoreUnavailableError } from '../../../src/store/Store.js';
import { challengeIdAt } from '../../helpers/challengeIdAt.js';
import { storeWith } from '../../helpers/storeWith.js';

const SECRET = 'verify-token-secret-0123456789abcdef';

function mint(secret = SECRET, over: { now?: number; sessionId?: string } = {}): string {
  return issueSessionToken(keyRing(secret, []), {
    challengeId: challengeIdAt(over.now ?? Date.now()),
    sessionId: over.sessionId ?? 'sess-1',
    siteKey: 'site-a',
    score: 0.75,
    inputType: 'touch',
    method: 'pointer',
    hostname: 'shop.example',
    ip: '203.0.113.7',
    now: over.now ?? Date.now(),
  });
}

const newStore = () => new MemoryStore({ maxMarkers: 1_000, maxCounters: 10 });

describe('verifyToken', () => {
  it('answers valid with the token score and inferred input type, once, and no claims', async () => {
    const store = newStore();
    const token = mint();
    const first = await verifyToken(token, { secret: SECRET, sessionId: 'sess-1', store });
    expect(first).toEqual({ valid: true, score: 0.75, inputType: 'touch', method: 'pointer' });
    expect(await verifyToken(token, { secret: SECRET, sessionId: 'sess-1', store })).toEqual({
      valid: false,
      score: 0,
      error: 'token_already_used',
    });
  });

  it('answers the reason codes a low-scoring token carries', async () => {
    const store = newStore(); // before the token: a store refuses what was issued before it started
    const token = issueSessionToken(keyRing(SECRET, []), {
      challengeId: challengeIdAt(Date.now()),
      sessionId: 'sess-1',
      siteKey: 'site-a',
      score: 0.1,
      reasons: ['path_too_straight', 'no_tremor'],
      inputType: 'keyboard',
      method: 'keyboard',
      hostname: 'shop.example',
      ip: '203.0.113.7',
      now: Date.now(),
    });
    expect(await verifyToken(token, { secret: SECRET, sessionId: 'sess-1', store })).toEqual({
      valid: true,
      score: 0.1,
      inputType: 'keyboard',
      method: 'keyboard',
      reasons: ['path_too_straight', 'no_tremor'],
    });
  });

  it('reports each failure with score 0', async () => {
    const store = newStore();
    const opts = { secret: SECRET, sessionId: 'sess-1', store };
    expect(await verifyToken('garbage', opts)).toEqual({ valid: false, score: 0, error: 'invalid_token' });
    expect(await verifyToken(mint('some-other-secret-abcdefghijkl'), opts)).toEqual({
      valid: false,
      score: 0,
      error: 'invalid_token',
    });
    expect(await verifyToken(mint(SECRET, { sessionId: 'sess-2' }), opts)).toEqual({
      valid: false,
      score: 0,
      error: 'session_mismatch',
    });
    expect(await verifyToken(mint(SECRET, { now: Date.now() - 61_000 }), opts)).toEqual({
      valid: false,
      score: 0,
      error: 'token_expired',
    });
    const full = new MemoryStore({ maxMarkers: 1, maxCounters: 1 });
    await full.consume('other', { issuedAt: Date.now(), expiresAt: Date.now() + 3_600_000 });
    expect(await verifyToken(mint(), { ...opts, store: full })).toEqual({
      valid: false,
      score: 0,
      error: 'store_unavailable',
    });
  });

  it('shares single use with /siteverify: a token redeemed by one is spent for the other', async () => {
    const store = newStore();
    const ring = keyRing(SECRET, []);
    const a = mint();
    expect(await siteverify({ ring, store }, { token: a, session_id: 'sess-1' })).toMatchObject({ success: true });
    expect(await verifyToken(a, { secret: SECRET, sessionId: 'sess-1', store })).toMatchObject({
      error: 'token_already_used',
    });
    const b = mint();
    expect(await verifyToken(b, { secret: SECRET, sessionId: 'sess-1', store })).toMatchObject({ valid: true });
    expect(await siteverify({ ring, store }, { token: b, session_id: 'sess-1' })).toMatchObject({
      error: 'token_already_used',
    });
  });

  it('refuses a token minted before its store began: a restarted store must not re-open single use', async () => {
    const before = newStore();
    const token = mint();
    expect(await verifyToken(token, { secret: SECRET, sessionId: 'sess-1', store: before })).toMatchObject({ valid: true });
    await new Promise((r) => setTimeout(r, 5));
    const restarted = newStore(); // the redemption above is not in its memory
    expect(await verifyToken(token, { secret: SECRET, sessionId: 'sess-1', store: restarted })).toEqual({
      valid: false,
      score: 0,
      error: 'token_already_used',
    });
    expect(await verifyToken(mint(), { secret: SECRET, sessionId: 'sess-1', store: restarted })).toMatchObject({ valid: true });
  });

  it('answers store_unavailable when the store cannot answer', async () => {
    const down = storeWith({
      consume: async () => {
        throw new StoreUnavailableError('down');
      },
    });
    expect(await verifyToken(mint(), { secret: SECRET, sessionId: 'sess-1', store: down })).toEqual({
      valid: false,
      score: 0,
      error: 'store_unavailable',
    });
  });

  it('gives exactly one valid among 50 concurrent verifications of one token', async () => {
    const store = newStore();
    const token = mint();
    const results = await Promise.all(Array.from({ length: 50 }, () => verifyToken(token, { secret: SECRET, sessionId: 'sess-1', store })));
    expect(results.filter((r) => r.valid)).toHaveLength(1);
    expect(results.filter((r) => r.error === 'token_already_used')).toHaveLength(49);
  });

  it('accepts keys in `secrets` during a rotation and refuses removed ones', async () => {
    const old = { kid: 'v1', value: 'old-secret-for-rotation-0123456789' };
    const store = newStore();
    const token = mint(old.value);
    expect(await verifyToken(token, { secret: SECRET, sessionId: 'sess-1', store })).toMatchObject({
      error: 'invalid_token',
    });
    expect(await verifyToken(token, { secret: SECRET, secrets: [old], sessionId: 'sess-1', store })).toEqual({
      valid: true,
      score: 0.75,
      inputType: 'touch',
      method: 'pointer',
    });
  });

  it('idempotencyKey: the same key again gets the first answer; another key, or none, token_already_used', async () => {
    const store = newStore();
    const token = mint();
    const opts = { secret: SECRET, sessionId: 'sess-1', store };
    const first = await verifyToken(token, { ...opts, idempotencyKey: 'order-42' });
    expect(first).toEqual({ valid: true, score: 0.75, inputType: 'touch', method: 'pointer' });
    expect(await verifyToken(token, { ...opts, idempotencyKey: 'order-42' })).toEqual(first);
    expect(await verifyToken(token, { ...opts, idempotencyKey: 'order-43' })).toEqual({
      valid: false,
      score: 0,
      error: 'token_already_used',
    });
    expect(await verifyToken(token, opts)).toEqual({ valid: false, score: 0, error: 'token_already_used' });
    // A first redemption without a key cannot be retried with one.
    const bare = mint();
    expect((await verifyToken(bare, opts)).valid).toBe(true);
    expect(await verifyToken(bare, { ...opts, idempotencyKey: 'order-44' })).toMatchObject({ error: 'token_already_used' });
  });

  it('idempotencyKey is bounded: 64 characters of its set pass, 65 or another character throw', async () => {
    const opts = { secret: SECRET, sessionId: 'sess-1', store: newStore() };
    expect((await verifyToken(mint(), { ...opts, idempotencyKey: 'A-z0.9_:'.repeat(8) })).valid).toBe(true);
    await expect(verifyToken(mint(), { ...opts, idempotencyKey: 'k'.repeat(65) })).rejects.toThrow(TypeError);
    await expect(verifyToken(mint(), { ...opts, idempotencyKey: 'key with space' })).rejects.toThrow(TypeError);
    await expect(verifyToken(mint(), { ...opts, idempotencyKey: '' })).rejects.toThrow(TypeError);
  });

  it('siteKey and remoteIp: another site is refused without burning the token; the address is compared', async () => {
    const store = newStore();
    const token = mint();
    const opts = { secret: SECRET, sessionId: 'sess-1', store };
    expect(await verifyToken(token, { ...opts, siteKey: 'site-b' })).toEqual({ valid: false, score: 0, error: 'site_key_mismatch' });
    expect(await verifyToken(token, { ...opts, siteKey: 'site-a', remoteIp: '198.51.100.1' })).toEqual({
      valid: true,
      score: 0.75,
      inputType: 'touch',
      method: 'pointer',
      remoteIpMismatch: true,
    });
    expect(await verifyToken(mint(), { ...opts, remoteIp: '203.0.113.7' })).toEqual({
      valid: true,
      score: 0.75,
      inputType: 'touch',
      method: 'pointer',
      remoteIpMismatch: false,
    });
  });
});

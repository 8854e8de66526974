import { describe, expect, it } from 'vitest';
import { jwtVerify } from 'jose';
import { keyRing } from '../../../src/core/token/keys.js';
import { signToken } from '../../../src/core/token/signToken.js';
import { issueSessionToken } from '../../../src/core/redeem/issueSessionToken.js';
import { siteverify } from '../../../src/core/redeem/siteverify.js';
import { MemoryStore } from '../../../src/store/MemoryStore.js';
import type { Store } from '../../../src/store/Store.js';
import { challengeIdAt } from '../../helpers/challengeIdAt.js';
import { storeWith } from '../../helpers/storeWith.js';

const SECRET = 'siteverify-test-secret-0123456789abcdef';
const ring = keyRing(SECRET, []);
const T0 = Date.UTC(2030, 0, 1, 12, 0, 0);
const CHALLENGE_ID = challengeIdAt(T0 - 5_000);

function mint(over: Partial<Parameters<typeof issueSessionToken>[1]> = {}, r = ring): string {
  return issueSessionToken(r, {
    challengeId: CHALLENGE_ID,
    sessionId: 'sess-1',
    siteKey: 'site-a',
    score: 0.87,
    inputType: 'keyboard',
    method: 'keyboard_strict',
    hostname: 'shop.example',
    ip: '203.0.113.7',
    now: T0,
    ...over,
  });
}

/** A session token's claims written by hand (no jti yet), for claims issueSessionToken never writes. */
function sessionClaims(score: number) {
  return {
    typ: 'session',
    challenge_id: CHALLENGE_ID,
    session_id: 'sess-1',
    site_key: 'site-a',
    iat: T0 / 1000,
    exp: T0 / 1000 + 60,
    score,
    hostname: '',
  };
}

function deps(store: Store = new MemoryStore({ maxMarkers: 1_000, maxCounters: 10 }), now = T0 + 1_000) {
  return { ring, store, now: () => now };
}

describe('issueSessionToken', () => {
  it('mints a 60 s HS256 JWT with every claim, readable by jose', async () => {
    const token = mint();
    const { payload, protectedHeader } = await jwtVerify(token, new TextEncoder().encode(SECRET), {
      algorithms: ['HS256'],
      currentDate: new Date(T0 + 30_000),
    });
    expect(protectedHeader).toEqual({ alg: 'HS256', typ: 'JWT', kid: ring.current.kid });
    expect(payload).toEqual({
      typ: 'session',
      challenge_id: CHALLENGE_ID,
      session_id: 'sess-1',
      site_key: 'site-a',
      jti: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      iat: T0 / 1000,
      exp: T0 / 1000 + 60,
      score: 0.87,
      input_type: 'keyboard',
      method: 'keyboard_strict',
      hostname: 'shop.example',
      ip: '203.0.113.7',
    });
    expect(mint()).not.toBe(token); // a fresh jti each time
  });

  it('never lets a token outlive its ttl', async () => {
    const token = mint({ now: T0 + 999, ttlMs: 10_000 });
    const { payload } = await jwtVerify(token, new TextEncoder().encode(SECRET), { currentDate: new Date(T0) });
    expect(payload.iat).toBe(T0 / 1000);
    expect(payload.exp).toBe(T0 / 1000 + 10); // 10.999 s rounds down
  });
});

describe('siteverify', () => {
  it('answers success once with the decoded claims and Turnstile-style extras', async () => {
    const d = deps();
    const token = mint();
    expect(await siteverify(d, { token, session_id: 'sess-1' })).toEqual({
      success: true,
      score: 0.87,
      challenge_id: CHALLENGE_ID,
      session_id: 'sess-1',
      site_key: 'site-a',
      input_type: 'keyboard',
      method: 'keyboard_strict',
      challenge_ts: '2030-01-01T12:00:00.000Z',
      hostname: 'shop.example',
      'error-codes': [],
    });
    expect(await siteverify(d, { token, session_id: 'sess-1' })).toEqual({
      success: false,
      score: 0,
      error: 'token_already_used',
      'error-codes': ['token_already_used'],
    });
  });

  it('reports input_type only when the token carries one, and refuses an unknown one', async () => {
    const claims = sessionClaims(0.5);
    // A token minted before the claim existed still verifies, without the field.
    const older = await siteverify(deps(), { token: signToken({ ...claims, jti: 'older-1' }, ring.current), session_id: 'sess-1' });
    expect(older.success).toBe(true);
    expect(older).not.toHaveProperty('input_type');
    for (const inputType of ['mouse', 'touch', 'pen']) {
      const r = await siteverify(deps(), { token: mint({ inputType: inputType as never }), session_id: 'sess-1' });
      expect(r).toMatchObject({ success: true, input_type: inputType });
    }
    for (const bogus of ['robot', 7, null]) {
      const token = signToken({ ...claims, jti: `bogus-${String(bogus)}`, input_type: bogus }, ring.current);
      expect(await siteverify(deps(), { token, session_id: 'sess-1' })).toMatchObject({ success: false, error: 'invalid_token' });
    }
  });

  it('reports method only when the token carries one, every method, and refuses an unknown one', async () => {
    const claims = sessionClaims(0.5);
    const older = await siteverify(deps(), { token: signToken({ ...claims, jti: 'older-m' }, ring.current), session_id: 'sess-1' });
    expect(older.success).toBe(true);
    expect(older).not.toHaveProperty('method');
    for (const method of ['pointer', 'keyboard', 'keyboard_strict'] as const) {
      expect(await siteverify(deps(), { token: mint({ method }), session_id: 'sess-1' })).toMatchObject({ success: true, method });
    }
    for (const bogus of ['passkeyish', 3, null]) {
      const token = signToken({ ...claims, jti: `bogus-m-${String(bogus)}`, method: bogus }, ring.current);
      expect(await siteverify(deps(), { token, session_id: 'sess-1' })).toMatchObject({ success: false, error: 'invalid_token' });
    }
  });

  it('answers the reason codes of a low score, compact in the token, only when it carries them', async () => {
    const low = mint({ score: 0.12, reasons: ['keyboard_rhythm_scripted', 'keyboard_keyups_missing'] });
    const claims = JSON.parse(Buffer.from(low.split('.')[1]!, 'base64url').toString());
    expect(claims.rsn).toEqual([16, 17]);
    expect(await siteverify(deps(), { token: low, session_id: 'sess-1' })).toMatchObject({
      success: true,
      score: 0.12,
      reasons: ['keyboard_rhythm_scripted', 'keyboard_keyups_missing'],
    });
    for (const none of [undefined, []] as const) {
      const token = mint({ ...(none === undefined ? {} : { reasons: none }) });
      expect(JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString())).not.toHaveProperty('rsn');
      expect(await siteverify(deps(), { token, session_id: 'sess-1' })).not.toHaveProperty('reasons');
    }
  });

  it('refuses a token whose reason claim no server makes, and leaves out codes it does not know', async () => {
    const claims = sessionClaims(0.2);
    for (const [i, rsn] of [['x'], [1, 2, 3, 4], [-1], 'abc'].entries()) {
      const token = signToken({ ...claims, jti: `rsn-${i}`, rsn }, ring.current);
      expect(await siteverify(deps(), { token, session_id: 'sess-1' })).toMatchObject({ success: false, error: 'invalid_token' });
    }
    const newer = signToken({ ...claims, jti: 'rsn-newer', rsn: [5, 4000] }, ring.current);
    expect(await siteverify(deps(), { token: newer, session_id: 'sess-1' })).toMatchObject({
      success: true,
      reasons: ['timing_too_regular'],
    });
    const unknown = signToken({ ...claims, jti: 'rsn-unknown', rsn: [4000] }, ring.current);
    expect(await siteverify(deps(), { token: unknown, session_id: 'sess-1' })).not.toHaveProperty('reasons');
  });

  it('answers missing_input before any verification', async () => {
    const calls: string[] = [];
    const spy: Store = storeWith({
      consume: async () => (calls.push('consume'), 'fresh'),
      increment: async () => (calls.push('increment'), 1),
    });
    const token = mint();
    for (const input of [
      {},
      { token },
      { session_id: 'sess-1' },
      { token: '', session_id: 'sess-1' },
      { token, session_id: '' },
      { token: 5, session_id: 'sess-1' },
      { token, session_id: ['sess-1'] },
    ]) {
      const r = await siteverify(deps(spy), input);
      expect(r).toEqual({ success: false, score: 0, error: 'missing_input', 'error-codes': ['missing_input'] });
    }
    expect(calls).toEqual([]);
  });

  it('distinguishes malformed, bad MAC, wrong session, expired and used', async () => {
    const store = new MemoryStore({ maxMarkers: 1_000, maxCounters: 10 });
    const d = deps(store);
    const code = async (token: string, session_id = 'sess-1', dd = d) => {
      const r = await siteverify(dd, { token, session_id });
      return r.success ? 'success' : r.error;
    };
    expect(await code('not-a-token')).toBe('invalid_token');
    const forged = signToken({ typ: 'session' }, { kid: ring.current.kid, value: 'wrong-secret-xxxxxxxxxxxx' });
    expect(await code(forged)).toBe('invalid_token');
    const good = mint();
    expect(await code(good.slice(0, -2) + (good.endsWith('AA') ? 'BA' : 'AA'))).toBe('invalid_token');
    // a correctly signed token of another typ, or missing claims, is not a session token
    const ticket = signToken({ typ: 'probe_ticket', session_id: 'sess-1' }, ring.current);
    expect(await code(ticket)).toBe('invalid_token');
    const partial = signToken({ typ: 'session', session_id: 'sess-1', exp: T0 / 1000 + 60 }, ring.current);
    expect(await code(partial)).toBe('invalid_token');

    expect(await code(good, 'sess-2')).toBe('session_mismatch');
    // the mismatch did not spend it
    const expiredDeps = deps(store, T0 + 60_000);
    expect(await code(good, 'sess-1', expiredDeps)).toBe('token_expired');
    expect(await code(good, 'sess-1', deps(store, T0 + 59_999))).toBe('success');
    expect(await code(good)).toBe('token_already_used');
  });

  it('checks the session before expiry, and both before use', async () => {
    const d = deps(undefined, T0 + 120_000);
    const token = mint();
    expect((await siteverify(d, { token, session_id: 'other' })) as { error: string }).toMatchObject({
      error: 'session_mismatch',
    });
    expect(await siteverify(d, { token, session_id: 'sess-1' })).toMatchObject({ error: 'token_expired' });
  });

  it('gives exactly one success among 50 concurrent redemptions of one token', async () => {
    const d = deps();
    const token = mint();
    const results = await Promise.all(Array.from({ length: 50 }, () => siteverify(d, { token, session_id: 'sess-1' })));
    expect(results.filter((r) => r.success)).toHaveLength(1);
    expect(results.filter((r) => !r.success && r.error === 'token_already_used')).toHaveLength(49);
  });

  it('verifies a token signed with an old listed key, not one whose key was removed', async () => {
    const old = { kid: 'old', value: 'old-secret-0123456789abcdefghij' };
    const token = mint({}, keyRing(old.value, []));
    const store = new MemoryStore({ maxMarkers: 10, maxCounters: 10 });
    const rotated = { ring: keyRing(SECRET, [old]), store, now: () => T0 };
    const removed = { ring: keyRing(SECRET, []), store, now: () => T0 };
    expect(await siteverify(removed, { token, session_id: 'sess-1' })).toMatchObject({ error: 'invalid_token' });
    expect(await siteverify(rotated, { token, session_id: 'sess-1' })).toMatchObject({ success: true });
  });

  it('fails closed when the store is full of live markers', async () => {
    const store = new MemoryStore({ maxMarkers: 2, maxCounters: 2, now: () => T0 - 60_000 });
    await store.consume('x', { issuedAt: T0, expiresAt: T0 + 3_600_000 });
    await store.consume('y', { issuedAt: T0, expiresAt: T0 + 3_600_000 });
    const d = { ring, store, now: () => T0 };
    expect(await siteverify(d, { token: mint(), session_id: 'sess-1' })).toEqual({
      success: false,
      score: 0,
      error: 'store_unavailable',
      'error-codes': ['store_unavailable'],
    });
  });
});

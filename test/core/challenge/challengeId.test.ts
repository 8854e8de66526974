import { describe, expect, it } from 'vitest';
import { authenticateChallengeId } from '../../../src/core/challenge/authenticateChallengeId.js';
import { challengeKeys } from '../../../src/core/challenge/challengeKeys.js';
import { createdAtOf, formatId } from '../../../src/core/challenge/challengeIdBytes.js';
import { deriveChallenge, derivedFromMac } from '../../../src/core/challenge/deriveChallenge.js';
import { type IdClaims, mintChallengeId as mintWith } from '../../../src/core/challenge/mintChallengeId.js';

const [keyA, keyB] = challengeKeys(['a'.repeat(32), 'b'.repeat(32)]) as [Buffer, Buffer];
const T0 = Date.UTC(2030, 0, 1);
const TTL = 120_000;
const KEYBOARD_TTL = 600_000;
const LIVES = { challengeTtlMs: TTL, keyboardChallengeTtlMs: KEYBOARD_TTL };
const POLICY = 'a'.repeat(64);
/** The site an id is checked against: its key and its current policy digest. */
const site = (key: string, digest = POLICY, retired: string[] = []) => ({ key, digest, retired });
const mintChallengeId = (key: Buffer, siteKey: string, createdAt: number, over: Partial<IdClaims> = {}) =>
  mintWith(key, { siteKey, policy: POLICY, createdAt, powDifficulty: 18, ...over });

describe('challenge ids', () => {
  it('carry the difficulty in the top 6 bits and created_at in the low 42 bits of the first 48, and are UUID-shaped', () => {
    const { id, bytes } = mintChallengeId(keyA, 'site', T0, { powDifficulty: 21 });
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(bytes.readUIntBE(0, 6)).toBe(21 * 2 ** 42 + T0);
    expect(createdAtOf(id)).toBe(T0);
  });

  it('authenticate with the difficulty they were issued with, which no client can change', () => {
    for (const powDifficulty of [0, 1, 18, 32, 63]) {
      const { id } = mintChallengeId(keyA, 'site', T0, { powDifficulty });
      const r = authenticateChallengeId([keyA], id, site('site'), T0, LIVES, false);
      expect(r.ok && r.challenge.powDifficulty).toBe(powDifficulty);
    }
    // Lowering the difficulty bits of a real id breaks its MAC.
    const { bytes } = mintChallengeId(keyA, 'site', T0, { powDifficulty: 20 });
    const easier = Buffer.from(bytes);
    easier.writeUIntBE(10 * 2 ** 42 + T0, 0, 6);
    const forged = formatId(easier.toString('hex'));
    expect(authenticateChallengeId([keyA], forged, site('site'), T0, LIVES, false)).toEqual({
      ok: false,
      failure: { code: 'challenge_not_found' },
    });
  });

  it("bind the site's policy digest: another policy is site_key_mismatch, a retired one challenge_expired", () => {
    const { id } = mintChallengeId(keyA, 'site', T0);
    const newer = 'b'.repeat(64);
    expect(authenticateChallengeId([keyA], id, site('site', newer), T0, LIVES, false)).toEqual({
      ok: false,
      failure: { code: 'site_key_mismatch' },
    });
    expect(authenticateChallengeId([keyA], id, site('site', newer, ['c'.repeat(64), POLICY]), T0, LIVES, false)).toEqual({
      ok: false,
      failure: { code: 'challenge_expired', detail: 'site policy changed' },
    });
    expect(authenticateChallengeId([keyA], id, site('site', POLICY, [newer]), T0, LIVES, false).ok).toBe(true);
  });

  it('authenticate under the minting key or any listed key, with its times', () => {
    const { id } = mintChallengeId(keyB, 'site', T0);
    const r = authenticateChallengeId([keyA, keyB], id, site('site'), T0, LIVES, false);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.challenge.key.equals(keyB)).toBe(true);
    expect(r.challenge).toMatchObject({ id, createdAt: T0, expiresAt: T0 + TTL, acceptedUntil: T0 + TTL, spentUntil: T0 + KEYBOARD_TTL });
    expect(authenticateChallengeId([keyA], id, site('site'), T0, LIVES, false)).toEqual({
      ok: false,
      failure: { code: 'challenge_not_found' },
    });
  });

  it('every flipped bit of the id body or MAC is challenge_not_found; of the tag, site_key_mismatch', () => {
    const { bytes } = mintChallengeId(keyA, 'site', T0);
    const hex = bytes.toString('hex');
    for (let i = 0; i < 32; i++) {
      const flipped = hex.slice(0, i) + (parseInt(hex[i]!, 16) ^ 1).toString(16) + hex.slice(i + 1);
      const id = `${flipped.slice(0, 8)}-${flipped.slice(8, 12)}-${flipped.slice(12, 16)}-${flipped.slice(16, 20)}-${flipped.slice(20)}`;
      const r = authenticateChallengeId([keyA], id, site('site'), T0, LIVES, false);
      expect(r.ok).toBe(false);
      if (r.ok) continue;
      // Hex digits 28..31 are the site tag.
      expect(r.failure.code).toBe(i >= 28 ? 'site_key_mismatch' : 'challenge_not_found');
    }
  });

  it('site_key_mismatch for another site key; skipped when no site key is given', () => {
    const { id } = mintChallengeId(keyA, 'site', T0);
    expect(authenticateChallengeId([keyA], id, site('other'), T0, LIVES, false)).toEqual({
      ok: false,
      failure: { code: 'site_key_mismatch' },
    });
    expect(authenticateChallengeId([keyA], id, undefined, T0, LIVES, false).ok).toBe(true);
  });

  it('expires one millisecond after expires_at; refuses ids from more than a minute ahead', () => {
    const { id } = mintChallengeId(keyA, 'site', T0);
    expect(authenticateChallengeId([keyA], id, site('site'), T0 + TTL, LIVES, false).ok).toBe(true);
    expect(authenticateChallengeId([keyA], id, site('site'), T0 + TTL + 1, LIVES, false)).toEqual({
      ok: false,
      failure: { code: 'challenge_expired' },
    });
    expect(authenticateChallengeId([keyA], id, site('site'), T0 - 60_000, LIVES, false).ok).toBe(true);
    expect(authenticateChallengeId([keyA], id, site('site'), T0 - 60_001, LIVES, false)).toEqual({
      ok: false,
      failure: { code: 'challenge_not_found' },
    });
  });

  it('accept a keyboard solve until the keyboard life, one millisecond past it challenge_expired; expires_at stays the pointer one', () => {
    const { id } = mintChallengeId(keyA, 'site', T0);
    const r = authenticateChallengeId([keyA], id, site('site'), T0 + KEYBOARD_TTL, LIVES, true);
    expect(r.ok && r.challenge).toMatchObject({ expiresAt: T0 + TTL, acceptedUntil: T0 + KEYBOARD_TTL, spentUntil: T0 + KEYBOARD_TTL });
    expect(authenticateChallengeId([keyA], id, site('site'), T0 + KEYBOARD_TTL + 1, LIVES, true)).toEqual({
      ok: false,
      failure: { code: 'challenge_expired' },
    });
    expect(authenticateChallengeId([keyA], id, site('site'), T0 + TTL + 1, LIVES, false)).toEqual({
      ok: false,
      failure: { code: 'challenge_expired' },
    });
  });

  it('never give a keyboard solve less than a pointer one: a keyboard life set shorter counts as the pointer life', () => {
    const { id } = mintChallengeId(keyA, 'site', T0);
    const shorter = { challengeTtlMs: TTL, keyboardChallengeTtlMs: 60_000 };
    const r = authenticateChallengeId([keyA], id, site('site'), T0 + TTL, shorter, true);
    expect(r.ok && r.challenge).toMatchObject({ acceptedUntil: T0 + TTL, spentUntil: T0 + TTL });
    expect(authenticateChallengeId([keyA], id, site('site'), T0 + TTL + 1, shorter, true)).toEqual({
      ok: false,
      failure: { code: 'challenge_expired' },
    });
  });
});

describe('deriveChallenge', () => {
  it('is a pure function of key and id, and differs across keys and ids', () => {
    const { bytes } = mintChallengeId(keyA, 'site', T0);
    const { bytes: other } = mintChallengeId(keyA, 'site', T0);
    expect(deriveChallenge(keyA, bytes, 0.5)).toEqual(deriveChallenge(keyA, bytes, 0.5));
    expect(deriveChallenge(keyA, bytes, 0).powChallenge).not.toBe(deriveChallenge(keyB, bytes, 0).powChallenge);
    expect(deriveChallenge(keyA, bytes, 0).powChallenge).not.toBe(deriveChallenge(keyA, other, 0).powChallenge);
    expect(deriveChallenge(keyA, bytes, 0).powChallenge).toMatch(/^[0-9a-f]{32}$/);
  });

  it('issuing, authenticating and re-deriving agree; the derived values are not the MAC24 the id shows', () => {
    const minted = mintChallengeId(keyB, 'site', T0);
    const r = authenticateChallengeId([keyA, keyB], minted.id, site('site'), T0, LIVES, false);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.challenge.mac).toBe(minted.mac);
    expect(derivedFromMac(r.challenge.mac, 0.5)).toEqual(deriveChallenge(keyB, minted.bytes, 0.5));
    const shown = minted.id.replaceAll('-', '').slice(22, 28);
    expect(minted.mac.slice(0, 6)).toBe(shown);
    expect(deriveChallenge(keyB, minted.bytes, 0).powChallenge).toBe(minted.mac.slice(14, 46));
  });

  it('probes with probability 0 never, 1 always, 0.5 about half the time', () => {
    let half = 0;
    for (let i = 0; i < 2000; i++) {
      const { bytes } = mintChallengeId(keyA, 's', T0 + i);
      expect(deriveChallenge(keyA, bytes, 0).hasProbe).toBe(false);
      expect(deriveChallenge(keyA, bytes, 1).hasProbe).toBe(true);
      if (deriveChallenge(keyA, bytes, 0.5).hasProbe) half++;
    }
    expect(half).toBeGreaterThan(850);
    expect(half).toBeLessThan(1150);
  });
});

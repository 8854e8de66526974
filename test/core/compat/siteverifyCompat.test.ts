import { describe, expect, it } from 'vitest';
import { siteverifyCompat } from '../../../src/core/compat/siteverifyCompat.js';
import { issueSessionToken } from '../../../src/core/redeem/issueSessionToken.js';
import { UNBOUND_SESSION, redeemSessionToken } from '../../../src/core/redeem/redeemSessionToken.js';
import type { SiteverifyCaller } from '../../../src/core/redeem/siteverifyCaller.js';
import { defaultPolicy } from '../../../src/core/sites/SitePolicy.js';
import type { Site } from '../../../src/core/sites/Site.js';
import { keyRing } from '../../../src/core/token/keys.js';
import { defaultConfig } from '../../../src/config.js';
import { MemoryStore } from '../../../src/store/MemoryStore.js';
import { challengeIdAt } from '../../helpers/challengeIdAt.js';

const ring = keyRing('compat-test-secret-0123456789abcdef', []);
const T0 = Date.UTC(2030, 0, 1, 12, 0, 0);
const site = (key: string): Site => ({
  key,
  hostnames: [],
  secret: `secret-of-${key}`,
  policy: defaultPolicy(defaultConfig()),
  digest: '',
  retired: [],
});
const SITES: Record<string, SiteverifyCaller> = {
  'secret-of-shop': { kind: 'site', site: site('shop') },
  'secret-of-blog': { kind: 'site', site: site('blog') },
};
const callerOf = (secret: string) => SITES[secret];

function mint(sessionId = 'kept-by-the-widget', siteKey = 'shop'): string {
  return issueSessionToken(ring, {
    challengeId: challengeIdAt(T0 - 5_000),
    sessionId,
    siteKey,
    score: 0.8,
    inputType: 'keyboard',
    method: 'keyboard_strict',
    hostname: 'shop.example',
    ip: '',
    now: T0,
  });
}

const deps = () => ({ ring, store: new MemoryStore({ maxMarkers: 100, maxCounters: 10 }), now: () => T0 + 1_000 });

describe('redeemSessionToken with UNBOUND_SESSION', () => {
  it('skips only the session comparison: the site, expiry and single use still hold', async () => {
    const d = { ring, store: new MemoryStore({ maxMarkers: 100, maxCounters: 10 }), now: T0 + 1_000 };
    const t = mint('any-session');
    expect(await redeemSessionToken(d, t, 'another-session')).toEqual({ ok: false, code: 'session_mismatch' });
    expect(await redeemSessionToken(d, t, UNBOUND_SESSION, { siteKeys: ['blog'] })).toEqual({ ok: false, code: 'site_key_mismatch' });
    expect(await redeemSessionToken({ ...d, now: T0 + 60_000 }, t, UNBOUND_SESSION)).toEqual({ ok: false, code: 'token_expired' });
    expect(await redeemSessionToken(d, t, UNBOUND_SESSION, { siteKeys: ['shop'] })).toMatchObject({
      ok: true,
      claims: { session_id: 'any-session' },
    });
    expect(await redeemSessionToken(d, t, UNBOUND_SESSION)).toEqual({ ok: false, code: 'token_already_used' });
  });
});

describe('siteverifyCompat', () => {
  it("redeems a site's token without its session id, once", async () => {
    const d = deps();
    const t = mint();
    expect(await siteverifyCompat(d, { secret: 'secret-of-shop', response: t }, callerOf)).toEqual({
      success: true,
      score: 0.8,
      method: 'keyboard_strict',
      challenge_ts: new Date(T0).toISOString(),
      hostname: 'shop.example',
    });
    expect(await siteverifyCompat(d, { secret: 'secret-of-shop', response: t }, callerOf)).toEqual({
      success: false,
      faults: ['token_already_used'],
    });
  });

  it('reports a missing secret and response together, then an unknown secret, before touching the token', async () => {
    const d = deps();
    const t = mint();
    expect(await siteverifyCompat(d, {}, callerOf)).toEqual({ success: false, faults: ['missing_secret', 'missing_response'] });
    expect(await siteverifyCompat(d, { secret: 5, response: t }, callerOf)).toEqual({ success: false, faults: ['missing_secret'] });
    expect(await siteverifyCompat(d, { secret: 'secret-of-shop', response: '' }, callerOf)).toEqual({
      success: false,
      faults: ['missing_response'],
    });
    expect(await siteverifyCompat(d, { secret: 'secret-of-nobody', response: t }, callerOf)).toEqual({
      success: false,
      faults: ['invalid_secret'],
    });
    expect(await siteverifyCompat(d, { secret: 'secret-of-blog', response: t }, callerOf)).toEqual({
      success: false,
      faults: ['site_key_mismatch'],
    });
    expect(await siteverifyCompat(d, { secret: 'secret-of-shop', response: t, sitekey: 'blog' }, callerOf)).toEqual({
      success: false,
      faults: ['site_key_mismatch'],
    });
    expect((await siteverifyCompat(d, { secret: 'secret-of-shop', response: t, sitekey: 'shop' }, callerOf)).success).toBe(true);
  });

  it('an operator caller binds only what `sitekey` names', async () => {
    const d = deps();
    const operator = () => ({ kind: 'operator' }) as const;
    expect(await siteverifyCompat(d, { secret: 'x', response: mint('s', 'blog'), sitekey: 'shop' }, operator)).toEqual({
      success: false,
      faults: ['site_key_mismatch'],
    });
    expect((await siteverifyCompat(d, { secret: 'x', response: mint('s', 'blog') }, operator)).success).toBe(true);
  });
});

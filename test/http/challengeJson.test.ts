import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config.js';
import { challengeKeys } from '../../src/core/challenge/challengeKeys.js';
import type { CoreContext } from '../../src/core/context.js';
import { type Challenge, issueChallenge } from '../../src/core/challenge/issueChallenge.js';
import { SiteRegistry } from '../../src/core/sites/SiteRegistry.js';
import { defaultPolicy } from '../../src/core/sites/SitePolicy.js';
import { challengeJson } from '../../src/http/challengeJson.js';
import { MemoryStore } from '../../src/store/MemoryStore.js';
import { testKernel } from '../helpers/server.js';

async function issue(siteKey: string, overrides: Parameters<typeof defaultConfig>[0] = {}): Promise<Challenge> {
  const config = defaultConfig(overrides);
  const ctx = {
    config,
    sites: new SiteRegistry({ source: undefined, sites: undefined, fallback: defaultPolicy(config), testKeys: true }),
    store: new MemoryStore({ maxMarkers: 10, maxCounters: 10 }),
    kernel: await testKernel(),
    challengeKeys: challengeKeys([config.signingSecret]),
    passkeys: undefined,
    now: Date.now,
  };
  const r = await issueChallenge(ctx as unknown as CoreContext, { site_key: siteKey }, { origin: '', address: '127.0.0.1' });
  if (!r.ok) throw new Error(r.failure.code);
  return r.challenge;
}

describe('challengeJson', () => {
  it('writes exactly what JSON.stringify writes, for every field an issued challenge has', async () => {
    for (const siteKey of ['site-a', 'quote " back\\slash', 'ünïcödé ✓ \u2028', 'tab\tnewline\n\u0001']) {
      for (const overrides of [
        {},
        { mazeDifficulty: 0.123456789, cellSize: 33, powDifficulty: 20, powKeyboardExtraBits: 5, challengeTtlMs: 1 },
      ]) {
        const c = await issue(siteKey, overrides);
        expect(challengeJson(c)).toBe(JSON.stringify(c));
        expect(JSON.parse(challengeJson(c))).toEqual(c);
      }
    }
  });

  it('writes what JSON.stringify writes over any sequence of challenges, numbers repeating or not', async () => {
    const base = await issue('site-a');
    // Few values per field, so a field's number often repeats the previous challenge's and often does not.
    const n = fc.constantFrom(0, -0, 1, 2, 0.3, 1e21, 1795707092579, 4294967295, 2 ** 53 + 2);
    const challenge = fc.record({
      maze_seed: n,
      maze_width: n,
      maze_height: n,
      maze_difficulty: n,
      pow_difficulty: n,
      pow_difficulty_keyboard: n,
      created_at: n,
      expires_at: n,
      cell_size: n,
    });
    fc.assert(
      fc.property(fc.array(challenge, { minLength: 1, maxLength: 20 }), (changes) => {
        for (const change of changes) {
          const c: Challenge = { ...base, ...change };
          expect(challengeJson(c)).toBe(JSON.stringify(c));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('leaves test challenges to JSON.stringify, with their flag', async () => {
    const c = await issue('test-always-pass');
    expect(c.test).toBe(true);
    expect(JSON.parse(challengeJson(c))).toEqual(c);
  });

  it('leaves challenges with probes to JSON.stringify', async () => {
    const c = await issue('s', { probeProbability: 1 });
    expect(c.probes).toHaveLength(1);
    expect(challengeJson(c)).toBe(JSON.stringify(c));
  });
});

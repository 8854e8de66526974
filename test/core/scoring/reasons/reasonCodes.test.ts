// Every feature a table may weigh answers with a stable reason code; low scores are explained
// by the terms that pulled them down most; tokens carry the codes compactly.
import { describe, expect, it } from 'vitest';
import { FEATURE_NAMES } from '../../../../src/kernel/features.js';
import { KEYBOARD_FEATURE_NAMES } from '../../../../src/core/scoring/keyboard/measureKeyboard.js';
import { MAX_REASONS, explainScore } from '../../../../src/core/scoring/reasons/explainScore.js';
import { REASON_CODES, REASON_OF_FEATURE } from '../../../../src/core/scoring/reasons/reasonCodes.js';
import { isReasonClaim, reasonClaim, reasonsOfClaim } from '../../../../src/core/scoring/reasons/reasonClaim.js';
import type { InputTable } from '../../../../src/core/scoring/ScoringTable.js';
import v1 from '../../../../src/core/scoring/tables/v1.json' with { type: 'json' };
import v2 from '../../../../src/core/scoring/tables/v2.json' with { type: 'json' };

describe('reason codes', () => {
  it('maps every kernel and keyboard feature to a known code (a new feature must add one)', () => {
    for (const feature of [...FEATURE_NAMES, ...KEYBOARD_FEATURE_NAMES]) {
      expect(REASON_CODES, feature).toContain(REASON_OF_FEATURE[feature]);
    }
    expect(Object.keys(REASON_OF_FEATURE).sort()).toEqual([...FEATURE_NAMES, ...KEYBOARD_FEATURE_NAMES].sort());
  });

  it('has every code once, and each term of the shipped tables has one', () => {
    expect(new Set(REASON_CODES).size).toBe(REASON_CODES.length);
    for (const table of [v1, v2]) {
      for (const model of Object.values(table.types) as InputTable[]) {
        for (const term of model.terms) expect(REASON_CODES).toContain(REASON_OF_FEATURE[term.feature]);
      }
    }
  });

  it('keeps the places tokens carry: the list only grows at its end', () => {
    expect(REASON_CODES.slice(0, 3)).toEqual(['duplicate_trace', 'probe_reaction_too_fast', 'too_few_events']);
    expect(REASON_CODES.indexOf('keyboard_rhythm_scripted')).toBe(16);
  });
});

describe('explainScore', () => {
  const model: InputTable = {
    bias: 1,
    terms: [
      { feature: 'interval_cv', transform: 'identity', center: 0, scale: 1, weight: 1 },
      { feature: 'interval_entropy', transform: 'identity', center: 0, scale: 1, weight: 1 },
      { feature: 'speed_cv', transform: 'identity', center: 0, scale: 1, weight: 1 },
      { feature: 'corridor_deviation', transform: 'identity', center: 0, scale: 1, weight: 1 },
      { feature: 'jitter_ratio', transform: 'identity', center: 0, scale: 1, weight: 1 },
    ],
  };

  it('names the strongest pulls first, each code once, at most three, never a term that pushed up', () => {
    const terms = Float64Array.from([-0.5, -3, -1, 2, -0.2]);
    expect(explainScore(model, { terms, probe: 0, duplicate: false })).toEqual(['timing_too_regular', 'speed_too_constant', 'no_tremor']);
    expect(explainScore(model, { terms: Float64Array.from([1, 1, -0.1, 1, 1]), probe: 0, duplicate: false })).toEqual([
      'speed_too_constant',
    ]);
  });

  it('puts a duplicate first and weighs the probe penalty like a term', () => {
    const terms = Float64Array.from([-0.5, 0, -1, 0, 0]);
    expect(explainScore(model, { terms, probe: -4, duplicate: true })).toEqual([
      'duplicate_trace',
      'probe_reaction_too_fast',
      'speed_too_constant',
    ]);
    expect(explainScore(model, { terms, probe: -4, duplicate: false })).toHaveLength(MAX_REASONS);
  });

  it('puts a tripped gate after a duplicate and before every pull, its code once', () => {
    const terms = Float64Array.from([-0.5, -3, -1, 0, 0]);
    expect(explainScore(model, { terms, probe: 0, duplicate: false, gate: 'keyboard_keyup_fraction' })).toEqual([
      'keyboard_keyups_missing',
      'timing_too_regular',
      'speed_too_constant',
    ]);
    expect(explainScore(model, { terms, probe: 0, duplicate: true, gate: 'interval_cv' })).toEqual([
      'duplicate_trace',
      'timing_too_regular',
      'speed_too_constant',
    ]);
  });

  it('names what a stable sort of the pulls names, ties and shared codes included', () => {
    // Two terms share a code here, and parts repeat, so ties and repeats are both met.
    const shared: InputTable = {
      bias: 0,
      terms: [...model.terms, { feature: 'interval_cv', transform: 'identity', center: 0, scale: 1, weight: 1 }],
    };
    const bySort = (terms: Float64Array, probe: number, duplicate: boolean) => {
      const pulls = shared.terms.map((term, i) => ({ code: REASON_OF_FEATURE[term.feature], by: terms[i]! }));
      pulls.push({ code: 'probe_reaction_too_fast', by: probe });
      const codes: string[] = duplicate ? ['duplicate_trace'] : [];
      for (const { code } of pulls.filter((p) => p.by < 0).sort((a, b) => a.by - b.by)) {
        if (codes.length === MAX_REASONS) break;
        if (!codes.includes(code)) codes.push(code);
      }
      return codes;
    };
    let seed = 7;
    const next = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed / 2 ** 31);
    const values = [-2, -1, -1, -0.5, 0, 0.5, NaN];
    for (let round = 0; round < 2_000; round++) {
      const terms = Float64Array.from(shared.terms, () => values[Math.floor(next() * values.length)]!);
      const probe = values[Math.floor(next() * values.length)]!;
      const duplicate = next() < 0.2;
      expect(explainScore(shared, { terms, probe, duplicate })).toEqual(bySort(terms, probe, duplicate));
    }
  });
});

describe('the token claim', () => {
  it('round-trips codes as their places, and leaves out places a newer server may know', () => {
    const claim = reasonClaim(['keyboard_rhythm_scripted', 'duplicate_trace']);
    expect(claim).toEqual([16, 0]);
    expect(isReasonClaim(claim)).toBe(true);
    expect(reasonsOfClaim(claim)).toEqual(['keyboard_rhythm_scripted', 'duplicate_trace']);
    expect(reasonsOfClaim([0, 9999])).toEqual(['duplicate_trace']);
  });

  it('refuses anything reasonClaim cannot have made', () => {
    for (const bad of ['0', [0, 1, 2, 3], [-1], [1.5], [null], {}, null]) expect(isReasonClaim(bad), JSON.stringify(bad)).toBe(false);
  });
});

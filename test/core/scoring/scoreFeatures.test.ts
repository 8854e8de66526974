import { describe, expect, it } from 'vitest';
import { FEATURE_NAMES } from '../../../src/kernel/features.js';
import { modelLogit, termContributions, trippedGate } from '../../../src/core/scoring/scoreFeatures.js';
import { pointerScore } from '../../../src/core/scoring/fit/pointerScore.js';
import { KEYBOARD_FEATURE_NAMES } from '../../../src/core/scoring/keyboard/measureKeyboard.js';
import { scoringTables, type InputTable, type ScoringTerm } from '../../../src/core/scoring/ScoringTable.js';

const kernel = (values: Partial<Record<(typeof FEATURE_NAMES)[number], number>>) =>
  Float64Array.from(FEATURE_NAMES, (name) => values[name] ?? 0);
const term = (feature: ScoringTerm['feature'], weight: number, extra: Partial<ScoringTerm> = {}): ScoringTerm => ({
  feature,
  transform: 'identity',
  center: 0,
  scale: 1,
  weight,
  ...extra,
});

describe('termContributions', () => {
  it('a term that only lowers adds nothing on the human side of the median, and its full part on the other', () => {
    const model: InputTable = { bias: 0, terms: [term('speed_cv', 2, { onlyLowers: true }), term('jerk_norm', 2)] };
    expect([...termContributions(model, { kernel: kernel({ speed_cv: 1.5, jerk_norm: 1.5 }) })]).toEqual([0, 3]);
    expect([...termContributions(model, { kernel: kernel({ speed_cv: -1.5, jerk_norm: -1.5 }) })]).toEqual([-3, -3]);
  });

  it('bounded terms together lower the logit by at most the floor, scaled alike; the others are untouched', () => {
    const model: InputTable = {
      bias: 5,
      boundedFloor: 2,
      terms: [term('curvature', 1, { bounded: true }), term('corridor_deviation_sd', 3, { bounded: true }), term('interval_cv', 1)],
    };
    // Bounded parts -2 and -6 (sum -8) become -0.5 and -1.5 (sum -2); the free term keeps its -4.
    const parts = termContributions(model, { kernel: kernel({ curvature: -2, corridor_deviation_sd: -2, interval_cv: -4 }) });
    expect(parts[0]).toBeCloseTo(-0.5, 12);
    expect(parts[1]).toBeCloseTo(-1.5, 12);
    expect(parts[2]).toBe(-4);
    // Within the floor nothing changes.
    const within = termContributions(model, { kernel: kernel({ curvature: -0.5, corridor_deviation_sd: 0.25, interval_cv: 1 }) });
    expect([...within]).toEqual([-0.5, 0.75, 1]);
  });

  it('without a floor, bounded marks change nothing', () => {
    const model: InputTable = { bias: 0, terms: [term('curvature', 1, { bounded: true }), term('turn_mean', 1, { bounded: true })] };
    expect([...termContributions(model, { kernel: kernel({ curvature: -4, turn_mean: -4 }) })]).toEqual([-4, -4]);
  });

  it('in the shipped v3 table, the bounded terms alone cannot reject a person at the median on every other feature', () => {
    const v3 = scoringTables.v3;
    const mouse = v3.types.mouse;
    expect(mouse.terms.some((t) => t.bounded)).toBe(true);
    expect(mouse.boundedFloor).toBeGreaterThan(0);
    const logitThreshold = Math.log(v3.threshold / (1 - v3.threshold));
    expect(mouse.bias - mouse.boundedFloor!).toBeGreaterThan(logitThreshold);
  });
});

describe('trippedGate', () => {
  const keyboard = (keyups: number, gapSpread: number) =>
    Float64Array.from(KEYBOARD_FEATURE_NAMES, (name) =>
      name === 'keyboard_keyup_fraction' ? keyups : name === 'keyboard_gap_spread' ? gapSpread : 0.5,
    );
  const model: InputTable = {
    bias: 0,
    terms: [],
    gates: [
      { feature: 'keyboard_keyup_fraction', below: 0.75 },
      { feature: 'keyboard_gap_spread', below: 0.015 },
    ],
  };
  const tripped = (keyups: number, gapSpread: number) =>
    trippedGate(model, { kernel: new Float64Array(0), keyboard: keyboard(keyups, gapSpread) });

  it('trips strictly below the bound, the first gate in order naming it', () => {
    expect(tripped(0.7499, 0.2)).toBe('keyboard_keyup_fraction');
    expect(tripped(0.75, 0.2)).toBeUndefined();
    expect(tripped(1, 0.0149)).toBe('keyboard_gap_spread');
    expect(tripped(1, 0.015)).toBeUndefined();
    expect(tripped(0, 0)).toBe('keyboard_keyup_fraction');
  });

  it('is not tripped by what the solve gives too little to measure, nor by a pointer trace, nor without gates', () => {
    expect(tripped(NaN, NaN)).toBeUndefined();
    expect(trippedGate(model, { kernel: kernel({}) })).toBeUndefined();
    expect(trippedGate({ bias: 0, terms: [] }, { kernel: new Float64Array(0), keyboard: keyboard(0, 0) })).toBeUndefined();
  });

  it('gates the shipped v3 keyboard model on keyups and rhythm, its pointer models on smoothness alone, and no pointer model of v1 or v2', () => {
    expect(scoringTables.v3.types.keyboard.gates?.map((g) => g.feature)).toEqual(['keyboard_keyup_fraction', 'keyboard_gap_spread']);
    for (const type of ['mouse', 'touch', 'pen'] as const) {
      expect(scoringTables.v3.types[type].gates?.map((g) => g.feature)).toEqual(['jerk_norm']);
      expect(scoringTables.v2.types[type].gates).toBeUndefined();
      expect(scoringTables.v1.types[type].gates).toBeUndefined();
    }
  });

  it("in the shipped v3 table, refuses a trace at the people's median on every term only when its jerk falls below the gate", () => {
    const mouse = scoringTables.v3.types.mouse;
    const below = mouse.gates![0]!.below;
    const trace = (jerk: number) => {
      const values = new Float64Array(FEATURE_NAMES.length);
      for (const t of mouse.terms)
        values[FEATURE_NAMES.indexOf(t.feature as (typeof FEATURE_NAMES)[number])] =
          t.transform === 'log' ? Math.exp(t.center) - 0.01 : t.center;
      values[FEATURE_NAMES.indexOf('jerk_norm')] = jerk;
      return values;
    };
    expect(pointerScore(scoringTables.v3, trace(below))).toBeGreaterThanOrEqual(scoringTables.v3.threshold);
    expect(pointerScore(scoringTables.v3, trace(below * (1 - 1e-9)))).toBe(0);
    expect(trippedGate(mouse, { kernel: trace(below * (1 - 1e-9)) })).toBe('jerk_norm');
  });
});

describe('modelLogit', () => {
  it('is the bias plus every term, and -Infinity below a gate whatever the terms say', () => {
    const model: InputTable = {
      bias: 1.5,
      terms: [term('speed_cv', 2), term('jerk_norm', -1)],
      gates: [{ feature: 'interval_cv', below: 0.1 }],
    };
    expect(modelLogit(model, { kernel: kernel({ speed_cv: 1, jerk_norm: 0.5, interval_cv: 0.2 }) })).toBe(1.5 + 2 - 0.5);
    expect(modelLogit(model, { kernel: kernel({ speed_cv: 4, jerk_norm: -4, interval_cv: 0.05 }) })).toBe(-Infinity);
  });
});

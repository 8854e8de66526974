import { describe, expect, it } from 'vitest';
import { captureShifts } from '../../../calibration/pointer/captureShift.js';
import type { InputTable } from '../../../src/core/scoring/ScoringTable.js';
import { FEATURE_NAMES } from '../../../src/kernel/features.js';

const row = (jerk: number, speedCv: number) => {
  const r = new Float64Array(FEATURE_NAMES.length);
  r[FEATURE_NAMES.indexOf('jerk_norm')] = jerk;
  r[FEATURE_NAMES.indexOf('speed_cv')] = speedCv;
  return r;
};

// jerk_norm weighed twice (signed and folded: reported once), speed_cv once.
const model: InputTable = {
  bias: 8,
  terms: [
    { feature: 'jerk_norm', transform: 'identity', center: 1, scale: 0.5, weight: 1 },
    { feature: 'jerk_norm', transform: 'identity', center: 1, scale: 0.5, weight: -0.5, fold: true },
    { feature: 'speed_cv', transform: 'log', center: 0, scale: 2, weight: 1 },
  ],
};

describe('captureShifts', () => {
  it("measures each weighed feature's paired shift in the model's scaled units, per trace and per user, and its KS distance", () => {
    // One user's three traces lose 0.5 of jerk at the throttle, the other's one trace 1.0; speed_cv does not move.
    const native = [row(1, 0.3), row(2, 0.4), row(3, 0.5), row(4, 0.6)];
    const throttled = [row(0.5, 0.3), row(1.5, 0.4), row(2.5, 0.5), row(3, 0.6)];
    const shifts = captureShifts(model, native, throttled, ['a', 'a', 'a', 'b']);
    expect(shifts.map((s) => s.feature)).toEqual(['jerk_norm', 'speed_cv']);
    const [jerk, speed] = shifts;
    // -0.5 / 0.5 = -1 scaled unit per trace of user a, -2 for user b.
    expect(jerk!.median).toBeCloseTo(-1, 12);
    expect(jerk!.byUser).toBeCloseTo(-1.5, 12);
    expect(jerk!.ks).toBeCloseTo(0.25, 12);
    expect(speed!.median).toBe(0);
    expect(speed!.byUser).toBe(0);
    expect(speed!.ks).toBe(0);
  });
});

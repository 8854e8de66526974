import { describe, expect, it } from 'vitest';
import { calibrationPeople } from '../../../../src/core/scoring/drift/calibrationPeople.js';
import { compareWithPeople } from '../../../../src/core/scoring/drift/compareWithPeople.js';
import { QUANTILE_LEVELS, summarizeFeatures } from '../../../../src/core/scoring/drift/PeopleSummary.js';
import { scoringTables } from '../../../../src/core/scoring/ScoringTable.js';
import { FEATURE_NAMES } from '../../../../src/kernel/features.js';

const people = calibrationPeople.v3!;
const table = scoringTables.v3;
const slot = (name: string) => FEATURE_NAMES.indexOf(name as never);

/** `n` feature rows drawn like the calibration people (their quantile function at evenly spread levels). */
function likePeople(n: number): number[][] {
  return Array.from({ length: n }, (_, i) =>
    FEATURE_NAMES.map((name) => {
      const q = people.features[name]!.quantiles;
      const at = ((i + 0.5) / n) * (q.length - 1);
      const lo = Math.floor(at);
      return q[lo]! + (q[Math.min(q.length - 1, lo + 1)]! - q[lo]!) * (at - lo);
    }),
  );
}

describe('the shipped calibration people', () => {
  it('hold every kernel feature at 101 ascending quantiles, for table v3', () => {
    expect(people.table).toBe('v3');
    expect(people.traces).toBeGreaterThan(500);
    for (const name of FEATURE_NAMES) {
      const q = people.features[name]!.quantiles;
      expect(q).toHaveLength(QUANTILE_LEVELS.length);
      expect(
        q.every((v, i) => i === 0 || v >= q[i - 1]!),
        name,
      ).toBe(true);
    }
  });
});

describe('compareWithPeople', () => {
  it('finds traffic like the people near them on every feature the table weighs', () => {
    const report = compareWithPeople(table, people, likePeople(400));
    const weighed = new Set(table.types.mouse.terms.map((t) => t.feature));
    expect(report.features.map((f) => f.feature).sort()).toEqual([...weighed].sort());
    for (const f of report.features) {
      expect(f.wasserstein, f.feature).toBeLessThan(0.1);
      expect(f.ks, f.feature).toBeLessThan(0.03);
      expect(f.fewPeople, f.feature).toBe(false);
    }
  });

  it('measures a shift in the scorer’s units and names the feature where the traffic left the people', () => {
    const rows = likePeople(400);
    const term = table.types.mouse.terms.find((t) => t.feature === 'efficiency_ratio')!;
    expect(term.transform).toBe('identity');
    // Up by the people's own 1st-to-99th percentile spread: in scaled units, that spread over the term's scale.
    const q = people.features.efficiency_ratio!.quantiles;
    const shift = q[99]! - q[1]!;
    for (const r of rows) r[slot('efficiency_ratio')]! += shift;
    const report = compareWithPeople(table, people, rows);
    const shifted = report.features.find((f) => f.feature === 'efficiency_ratio')!;
    expect(shifted.wasserstein).toBeCloseTo(shift / term.scale, 1);
    expect(shifted.fewPeople).toBe(true);
    expect(shifted.outside).toBeGreaterThan(0.5);
    expect(report.features[0]!.feature).toBe('efficiency_ratio');
    expect(report.features.filter((f) => f.fewPeople).map((f) => f.feature)).toEqual(['efficiency_ratio']);
  });

  it('summarises rows into quantiles that leave NaN out and count it', () => {
    const rows = [1, 2, 3, NaN].map((v) => FEATURE_NAMES.map(() => v));
    const s = summarizeFeatures('t', rows, 2);
    expect(s.features.duration!.quantiles[0]).toBe(1);
    expect(s.features.duration!.quantiles[50]).toBe(2);
    expect(s.features.duration!.quantiles[100]).toBe(3);
    expect(s.features.duration!.missing).toBe(0.25);
  });
});

import { FEATURE_NAMES, type FeatureName } from '../../src/kernel/features.js';
import type { ScoringTerm } from '../../src/core/scoring/ScoringTable.js';
import type { Sample } from '../samples.js';

/** Two-sample Kolmogorov-Smirnov distance: the largest gap between the empirical CDFs, in [0, 1]. */
export function ksDistance(a: readonly number[], b: readonly number[]): number {
  const xs = [...a].sort((p, q) => p - q),
    ys = [...b].sort((p, q) => p - q);
  let i = 0,
    j = 0,
    gap = 0;
  while (i < xs.length && j < ys.length) {
    const v = Math.min(xs[i]!, ys[j]!);
    while (i < xs.length && xs[i]! <= v) i++;
    while (j < ys.length && ys[j]! <= v) j++;
    gap = Math.max(gap, Math.abs(i / xs.length - j / ys.length));
  }
  return gap;
}

export interface FeatureShift {
  feature: FeatureName;
  /** Largest KS distance between the people's distributions under two layings. */
  byLaying: number;
  /** The layings whose people differ most. */
  layings: [string, string];
  /** KS distance between the people (all layings pooled) and each bot family. */
  byFamily: Record<string, number>;
  /** The median of byFamily: how broadly the feature separates the families. */
  separation: number;
}

const finite = (xs: number[]) => xs.filter(Number.isFinite);
const median = (xs: readonly number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/**
 * For each feature: how far the people's distribution moves when the same people are laid
 * another way, against how far it separates people from each bot family (KS distances, so both
 * are in one unit). A feature that moves with the laying more than it separates bots learns the
 * laying, not the person.
 */
export function layingShifts(
  features: readonly FeatureName[],
  values: ReadonlyMap<Sample, Float64Array>,
  peopleByLaying: Record<string, readonly Sample[]>,
  bots: readonly Sample[],
): FeatureShift[] {
  const layingNames = Object.keys(peopleByLaying);
  return features.map((feature) => {
    const slot = FEATURE_NAMES.indexOf(feature);
    const of = (xs: readonly Sample[]) => finite(xs.map((s) => values.get(s)![slot]!));
    const people = Object.fromEntries(layingNames.map((l) => [l, of(peopleByLaying[l]!)]));
    let byLaying = 0;
    let layings: [string, string] = [layingNames[0]!, layingNames[0]!];
    for (let i = 0; i < layingNames.length; i++) {
      for (let j = i + 1; j < layingNames.length; j++) {
        const d = ksDistance(people[layingNames[i]!]!, people[layingNames[j]!]!);
        if (d > byLaying) [byLaying, layings] = [d, [layingNames[i]!, layingNames[j]!]];
      }
    }
    const pooled = layingNames.flatMap((l) => people[l]!);
    const byFamily: Record<string, number> = {};
    for (const family of new Set(bots.map((b) => b.kind))) byFamily[family] = ksDistance(pooled, of(bots.filter((b) => b.kind === family)));
    return { feature, byLaying, layings, byFamily, separation: median(Object.values(byFamily)) };
  });
}

/** Features of `candidates` that move with the laying no more than they separate the bots. */
export function layingInvariant<T extends { feature: FeatureName }>(candidates: readonly T[], shifts: readonly FeatureShift[]): T[] {
  return candidates.filter((c) => {
    const s = shifts.find((x) => x.feature === c.feature)!;
    return s.byLaying <= s.separation;
  });
}

export type { ScoringTerm };

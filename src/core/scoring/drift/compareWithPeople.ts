import { FEATURE_NAMES, type FeatureName } from '../../../kernel/features.js';
import type { ScoringTable, ScoringTerm } from '../ScoringTable.js';
import { type PeopleSummary, QUANTILE_LEVELS, quantileOf } from './PeopleSummary.js';

/** Traffic beyond the people's 1st to 99th percentile: 2% expected if it were like them. */
const FEW_PEOPLE_LOW = 0.01;
const FEW_PEOPLE_HIGH = 0.99;
/** A feature is named when more than this share of the traffic sits where 2% of the people were. */
export const FEW_PEOPLE_SHARE = 0.1;

/** How one feature of the traffic compares with the calibration people, in the table's scaled units. */
export interface FeatureDrift {
  feature: FeatureName;
  /** The term's scale: z = (transform(value) - center) / scale. */
  transform: ScoringTerm['transform'];
  /** Quantiles at QUANTILE_LEVELS, in scaled units, of the people and of the traffic. */
  people: number[];
  traffic: number[];
  /** Wasserstein-1 distance between the two, scaled units (the mean shift a value needs). */
  wasserstein: number;
  /** Kolmogorov-Smirnov statistic (largest gap between the two distribution functions). */
  ks: number;
  /** Share of the traffic below the people's 1st or above their 99th percentile. */
  outside: number;
  /** More than FEW_PEOPLE_SHARE outside: the traffic sits where calibration had few people. */
  fewPeople: boolean;
}

export interface DriftReport {
  table: string;
  /** Traffic traces compared (accepted pointer solves with features). */
  traces: number;
  /** Every feature the table's pointer model weighs, farthest first. */
  features: FeatureDrift[];
}

/**
 * Compares the features of accepted pointer traffic (rows in FEATURE_NAMES order) with the
 * calibration people of `table`, feature by feature, for every feature its pointer model weighs,
 * in the units of its first term (so a distance of 1 is one scale step of the scorer).
 */
export function compareWithPeople(table: ScoringTable, people: PeopleSummary, rows: readonly ArrayLike<number>[]): DriftReport {
  const terms = new Map<string, ScoringTerm>();
  for (const term of table.types.mouse.terms) if (!terms.has(term.feature)) terms.set(term.feature, term as ScoringTerm);
  const features: FeatureDrift[] = [];
  FEATURE_NAMES.forEach((feature, slot) => {
    const term = terms.get(feature);
    const summary = people.features[feature];
    if (term === undefined || summary === undefined) return;
    const scale = (v: number) => ((term.transform === 'log' ? Math.log(0.01 + Math.max(0, v)) : v) - term.center) / term.scale;
    const peopleScaled = summary.quantiles.map(scale);
    const values = rows
      .map((r) => r[slot]!)
      .filter((v) => Number.isFinite(v))
      .map(scale)
      .sort((a, b) => a - b);
    const traffic = QUANTILE_LEVELS.map((p) => quantileOf(values, p));
    const low = quantileOf(peopleScaled, FEW_PEOPLE_LOW);
    const high = quantileOf(peopleScaled, FEW_PEOPLE_HIGH);
    const outside = values.length === 0 ? 0 : values.filter((v) => v < low || v > high).length / values.length;
    features.push({
      feature,
      transform: term.transform,
      people: peopleScaled,
      traffic,
      wasserstein: values.length === 0 ? NaN : mean(peopleScaled.map((q, i) => Math.abs(q - traffic[i]!))),
      ks: ksStatistic(peopleScaled, values),
      outside,
      fewPeople: outside > FEW_PEOPLE_SHARE,
    });
  });
  features.sort((a, b) => (b.wasserstein || 0) - (a.wasserstein || 0));
  return { table: table.version, traces: rows.length, features };
}

function mean(xs: readonly number[]): number {
  return xs.reduce((a, b) => a + b, 0) / xs.length;
}

/**
 * The largest gap between the people's distribution function (read from its quantiles, to their
 * 1% steps) and the traffic's (its sorted values), on either side of each value of the traffic,
 * so a value many share (a pause fraction of 0) is a step of both and no gap by itself.
 */
function ksStatistic(peopleQuantiles: readonly number[], sortedTraffic: readonly number[]): number {
  const n = sortedTraffic.length;
  if (n === 0) return NaN;
  /** The people's share at most (or, `strict`, below) x. */
  const peopleCdf = (x: number, strict: boolean) => {
    let below = 0;
    while (below < peopleQuantiles.length && (strict ? peopleQuantiles[below]! < x : peopleQuantiles[below]! <= x)) below++;
    return below === 0 ? 0 : QUANTILE_LEVELS[below - 1]!;
  };
  let d = 0;
  for (let i = 0; i < n; ) {
    const x = sortedTraffic[i]!;
    let j = i;
    while (j < n && sortedTraffic[j] === x) j++;
    d = Math.max(d, Math.abs(j / n - peopleCdf(x, false)), Math.abs(i / n - peopleCdf(x, true)));
    i = j;
  }
  return d;
}

import type { InputTable, ScoringTable } from '../ScoringTable.js';
import { type Labelled, fitTable } from './fitTable.js';
import { groupWeights } from './groupWeights.js';
import { pointerScore } from './pointerScore.js';
import { siteRecipe } from './siteRecipe.js';
import { PEOPLE_KEPT, thresholdKeeping } from './thresholdKeeping.js';
import { FEATURE_NAMES } from '../../../kernel/features.js';

/**
 * Fewest usable accepted pointer traces a site fit takes. The fit centres and scales every
 * feature on them (median and interquartile range) and weighs about forty terms against ten bot
 * families; with fewer traces a handful of unusual people would set where everyone must be.
 */
export const MIN_FIT_TRACES = 200;

/** Accepted at a threshold: the share of scores at or above it. */
export interface Acceptance {
  threshold: number;
  /** Usable sample traces accepted, of `n`. */
  sample: { accepted: number; n: number };
  /** Per bot family: bots accepted, of `n`. */
  families: Record<string, { accepted: number; n: number }>;
}

export interface SiteFit {
  table: ScoringTable;
  /** The shipped table at its threshold, and the fitted one at its own, on the same rows. */
  before: Acceptance;
  after: Acceptance;
  /** Sample traces left out for a feature the model weighs that the trace gave no value for. */
  unusable: number;
}

/** Why a fit was not made: too few traces, or no threshold that keeps every promise. */
export class FitRefused extends Error {}

const logit = (p: number) => Math.log(p / (1 - p));

/**
 * Fits a site's scoring table on its accepted pointer traffic (feature rows in FEATURE_NAMES
 * order) plus the shipped bot families (rows per family), never on traffic alone: the pointer
 * model is refitted by the shipped table's own recipe (siteRecipe), the traffic weighed per trace
 * (a sampled trace does not say whose it is) and each family as much as any other. Its threshold
 * keeps PEOPLE_KEPT of the traffic, capped at one half, raised where needed so that no family is
 * accepted more often than the shipped table accepts it; the keyboard model is shifted so that
 * every keyboard solve is judged as the shipped table judges it. Refuses (FitRefused) with fewer
 * than MIN_FIT_TRACES usable traces, when no threshold holds the families at their shipped rates,
 * or when the bounded corridor-geometry terms could then reject a person alone.
 */
export function fitSiteTable(
  shipped: ScoringTable,
  traffic: readonly ArrayLike<number>[],
  bots: ReadonlyMap<string, readonly Float64Array[]>,
): SiteFit {
  const recipe = siteRecipe(shipped.types.mouse);
  const slots = recipe.features.map(([feature]) => FEATURE_NAMES.indexOf(feature));
  const people = traffic.map((row) => Float64Array.from(row)).filter((row) => slots.every((slot) => Number.isFinite(row[slot])));
  if (people.length < MIN_FIT_TRACES) {
    throw new FitRefused(
      `a site fit needs at least ${MIN_FIT_TRACES} accepted pointer traces with every weighed feature; the sample has ${people.length}`,
    );
  }
  // A sampled trace does not say whose it is: each is a group of its own.
  const rows = [
    ...people.map((values, i) => ({ values, human: true, group: `trace ${i}` })),
    ...[...bots].flatMap(([family, xs]) => xs.map((values) => ({ values, human: false, group: family }))),
  ];
  const weights = groupWeights(
    rows,
    (r) => r.human,
    (r) => r.group,
  );
  const data: Labelled[] = rows.map((r, i) => ({ values: r.values, human: r.human, weight: weights[i]! }));
  const pointer = fitTable(data, recipe);
  const draft: ScoringTable = {
    ...shipped,
    version: `${shipped.version}-site`,
    types: { ...shipped.types, mouse: pointer, touch: pointer, pen: pointer },
  };

  const before = acceptance(shipped, shipped.threshold, people, bots);
  const sampleScores = people.map((row) => pointerScore(draft, row));
  const familyScores = new Map([...bots].map(([family, rows]) => [family, rows.map((row) => pointerScore(draft, row))]));
  const share = (scores: readonly number[], t: number) => scores.filter((s) => s >= t).length;
  const forPeople = thresholdKeeping(PEOPLE_KEPT, (t) => share(sampleScores, t) / sampleScores.length);
  const holdsFamilies = (t: number) => [...familyScores].every(([family, scores]) => share(scores, t) <= before.families[family]!.accepted);
  let threshold = forPeople;
  while (!holdsFamilies(threshold) && threshold < 0.99) threshold = Math.round(threshold * 100 + 1) / 100;
  if (!holdsFamilies(threshold))
    throw new FitRefused('no threshold of the fitted table accepts every bot family at most as often as the shipped table does');
  if (pointer.boundedFloor !== undefined && pointer.bias - pointer.boundedFloor <= logit(threshold)) {
    throw new FitRefused(
      `the fitted bias ${pointer.bias} less the corridor-geometry floor ${pointer.boundedFloor} does not clear the threshold ${threshold}: geometry alone could reject a person`,
    );
  }
  const table: ScoringTable = {
    ...draft,
    threshold,
    types: { ...draft.types, keyboard: shifted(shipped.types.keyboard, logit(threshold) - logit(shipped.threshold)) },
  };
  return { table, before, after: acceptance(table, threshold, people, bots), unusable: traffic.length - people.length };
}

/** The model with its bias moved by `by`: the same verdicts at a threshold whose logit moved as much. */
function shifted(model: InputTable, by: number): InputTable {
  return { ...model, bias: model.bias + by };
}

function acceptance(
  table: ScoringTable,
  threshold: number,
  people: readonly Float64Array[],
  bots: ReadonlyMap<string, readonly Float64Array[]>,
): Acceptance {
  const count = (rows: readonly Float64Array[]) => ({
    accepted: rows.filter((row) => pointerScore(table, row) >= threshold).length,
    n: rows.length,
  });
  return { threshold, sample: count(people), families: Object.fromEntries([...bots].map(([family, rows]) => [family, count(rows)])) };
}

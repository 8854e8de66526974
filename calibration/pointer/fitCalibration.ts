import { packEvents } from '../../src/kernel/index.js';
import type { ScoringTable } from '../../src/core/scoring/ScoringTable.js';
import { humanRates, scoreAll } from './evaluate.js';
import { fitTable, type FitOptions, type Labelled } from '../../src/core/scoring/fit/fitTable.js';
import { groupWeights } from '../../src/core/scoring/fit/groupWeights.js';
import { PEOPLE_KEPT, thresholdKeeping } from '../../src/core/scoring/fit/thresholdKeeping.js';
import { CELL } from '../people/mazePath.js';
import type { CalibrationKernel, Sample } from '../samples.js';

/** Feature values of each sample, computed once for every fit that uses them. */
export function featureValues(kernel: CalibrationKernel, samples: readonly Sample[]): Map<Sample, Float64Array> {
  return new Map(samples.map((s) => [s, kernel.features(s.maze, packEvents(s.events), CELL).values.slice()]));
}

/**
 * Fits the pointer model of `base` on calibration humans and bots (humans weighted per user,
 * each bot family in total as much as any other), then the threshold that keeps PEOPLE_KEPT of
 * the calibration humans (macro over users, scorer alone), capped at 0.5. Held-out users never enter.
 */
export async function fitCalibration(
  kernel: CalibrationKernel,
  base: ScoringTable,
  values: ReadonlyMap<Sample, Float64Array>,
  humans: readonly Sample[],
  bots: readonly Sample[],
  options: FitOptions = {},
): Promise<ScoringTable> {
  const samples = [...humans.map((s) => ({ s, human: true })), ...bots.map((s) => ({ s, human: false }))];
  const weights = groupWeights(
    samples,
    (x) => x.human,
    (x) => (x.human ? x.s.user : x.s.kind),
  );
  const data: Labelled[] = samples.map((x, i) => ({ values: values.get(x.s)!, human: x.human, weight: weights[i]! }));
  const mouse = fitTable(data, options);
  const draft: ScoringTable = { ...base, types: { ...base.types, mouse, touch: mouse, pen: mouse } };
  const calScored = await scoreAll(kernel, draft, humans, 1);
  const threshold = thresholdKeeping(PEOPLE_KEPT, (t) => humanRates(calScored, t).scorer.rate);
  return { ...draft, threshold };
}

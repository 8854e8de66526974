import { packEvents } from '../../src/kernel/index.js';
import type { ScoringTable } from '../../src/core/scoring/ScoringTable.js';
import { humanRates, scoreAll } from './evaluate.js';
import { fitTable, type FitOptions, type Labelled } from '../../src/core/scoring/fit/fitTable.js';
import { PEOPLE_KEPT, thresholdKeeping } from '../../src/core/scoring/fit/thresholdKeeping.js';
import { CELL } from './mazePath.js';
import type { CalibrationKernel, Sample } from './samples.js';

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
  const perUser = new Map<string, number>();
  for (const h of humans) perUser.set(h.user, (perUser.get(h.user) ?? 0) + 1);
  const perFamily = new Map<string, number>();
  for (const b of bots) perFamily.set(b.kind, (perFamily.get(b.kind) ?? 0) + 1);
  const people: Labelled[] = humans.map((h) => ({ values: values.get(h)!, human: true, weight: 1 / (perUser.get(h.user)! * perUser.size) }));
  const scripted: Labelled[] = bots.map((b) => ({ values: values.get(b)!, human: false, weight: 1 / (perFamily.get(b.kind)! * perFamily.size) }));
  const mouse = fitTable([...people, ...scripted], options);
  const draft: ScoringTable = { ...base, types: { ...base.types, mouse, touch: mouse, pen: mouse } };
  const calScored = await scoreAll(kernel, draft, humans, 1);
  const threshold = thresholdKeeping(PEOPLE_KEPT, (t) => humanRates(calScored, t).scorer.rate);
  return { ...draft, threshold };
}

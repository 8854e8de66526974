import type { ScoringTable } from '../../src/core/scoring/ScoringTable.js';
import { botRates, humanRates, scoreAll, type FamilyRates, type HumanRates } from './evaluate.js';
import { fitCalibration } from './fitCalibration.js';
import type { FitOptions } from '../../src/core/scoring/fit/fitTable.js';
import { CAPTURES, type CalibrationKernel, type Capture, type Sample } from '../samples.js';

/** Calibration people (a third at the 33 ms throttle) and held-out people, per laying. */
export interface LaidPeople {
  calibration: Record<string, Sample[]>;
  heldOut: Record<string, Record<Capture, Sample[]>>;
}

export interface LayingLeftOut {
  laying: string;
  threshold: number;
  /** Held-out people on every laying (the left-out one included), end to end and by the scorer. */
  people: Record<string, Record<Capture, HumanRates>>;
  /** Each bot family against a fit without it (and without the laying). */
  familiesLeftOut: Record<string, FamilyRates>;
}

/**
 * For each laying: fits on the people of the other layings (and every bot family), measures
 * held-out people on all layings, then, still without that laying, refits once per bot family
 * without the family and measures its held-out bots. The left-out laying's people are what
 * predicts people who move in a way none of the fitting layings imitates.
 */
export async function leaveOneLayingOut(
  kernel: CalibrationKernel,
  base: ScoringTable,
  values: ReadonlyMap<Sample, Float64Array>,
  people: LaidPeople,
  calibrationBots: readonly Sample[],
  heldOutBots: readonly Sample[],
  /** The fit's options for the people it is given: what the options read from people never sees the left-out laying. */
  optionsFor: (humans: readonly Sample[]) => FitOptions,
): Promise<LayingLeftOut[]> {
  const layings = Object.keys(people.calibration);
  const out: LayingLeftOut[] = [];
  for (const laying of layings) {
    const humans = layings.filter((l) => l !== laying).flatMap((l) => people.calibration[l]!);
    const options = optionsFor(humans);
    const table = await fitCalibration(kernel, base, values, humans, calibrationBots, options);
    const rates: LayingLeftOut['people'] = {};
    for (const l of layings) {
      rates[l] = {} as Record<Capture, HumanRates>;
      for (const c of CAPTURES)
        rates[l][c] = humanRates(await scoreAll(kernel, table, people.heldOut[l]![c], table.threshold), table.threshold);
    }
    const familiesLeftOut: Record<string, FamilyRates> = {};
    for (const family of new Set(heldOutBots.map((b) => b.kind))) {
      const without = await fitCalibration(
        kernel,
        base,
        values,
        humans,
        calibrationBots.filter((b) => b.kind !== family),
        options,
      );
      const scored = await scoreAll(
        kernel,
        without,
        heldOutBots.filter((b) => b.kind === family),
        without.threshold,
      );
      familiesLeftOut[family] = botRates(scored, without.threshold).families[family]!;
    }
    out.push({ laying, threshold: table.threshold, people: rates, familiesLeftOut });
  }
  return out;
}

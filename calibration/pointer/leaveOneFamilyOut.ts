import type { ScoringTable } from '../../src/core/scoring/ScoringTable.js';
import { botRates, scoreAll, type FamilyRates } from './evaluate.js';
import { fitCalibration } from './fitCalibration.js';
import type { FitOptions } from '../../src/core/scoring/fit/fitTable.js';
import type { CalibrationKernel, Sample } from '../samples.js';

export interface LeftOut extends FamilyRates {
  /** The threshold fitted without the family (on calibration humans). */
  threshold: number;
  /** By variant (timing, pixel ratio), when the family has several. */
  variants?: Record<string, FamilyRates>;
}

/**
 * For each bot family: refits the table without any of its variants, then measures that
 * family's held-out bots against it (scorer alone and end to end, Wilson CIs). This is what
 * predicts a tool the calibration has never seen.
 */
export async function leaveOneFamilyOut(
  kernel: CalibrationKernel,
  base: ScoringTable,
  values: ReadonlyMap<Sample, Float64Array>,
  calibration: { humans: readonly Sample[]; bots: readonly Sample[] },
  heldOutBots: readonly Sample[],
  options: FitOptions = {},
): Promise<Record<string, LeftOut>> {
  const out: Record<string, LeftOut> = {};
  for (const family of new Set(heldOutBots.map((b) => b.kind))) {
    const others = calibration.bots.filter((b) => b.kind !== family);
    const table = await fitCalibration(kernel, base, values, calibration.humans, others, options);
    const scored = await scoreAll(
      kernel,
      table,
      heldOutBots.filter((b) => b.kind === family),
      table.threshold,
    );
    const rates = botRates(scored, table.threshold);
    out[family] = {
      ...rates.families[family]!,
      threshold: table.threshold,
      ...(rates.variants[family] ? { variants: rates.variants[family] } : {}),
    };
  }
  return out;
}

import { FEATURE_NAMES, type FeatureName } from '../../../kernel/features.js';

/**
 * The shipped bot families as a site fit sees them: per family, the feature values of sampled
 * bots solving random mazes, for the features a table's pointer model weighs. Shipped beside the
 * table (tables/<version>.bots.json, written by `npm run calibrate:bots` from the calibration's
 * generators, which do not ship), so `ariadne calibrate --traces FILE --fit OUT` never fits on
 * traffic alone.
 */
export interface BotRows {
  /** The table whose pointer features these are. */
  table: string;
  /** The generators' seed. */
  seed: number;
  /** The columns of every row. */
  features: FeatureName[];
  /** Family name -> rows (one bot each, values in `features` order, five significant digits). */
  families: Record<string, number[][]>;
}

const SLOT = new Map<string, number>(FEATURE_NAMES.map((name, i) => [name, i]));

/** Each family's rows spread into FEATURE_NAMES order (features not kept read NaN). */
export function botFeatureRows(rows: BotRows): Map<string, Float64Array[]> {
  const slots = rows.features.map((name) => SLOT.get(name)!);
  return new Map(
    Object.entries(rows.families).map(([family, xs]) => [
      family,
      xs.map((x) => {
        const values = new Float64Array(FEATURE_NAMES.length).fill(NaN);
        slots.forEach((slot, i) => (values[slot] = x[i]!));
        return values;
      }),
    ]),
  );
}

import type { ScoringTable } from '../ScoringTable.js';
import { modelLogit, sigmoid } from '../scoreFeatures.js';

/**
 * The score a table gives a pointer trace with these kernel features (FEATURE_NAMES order), as
 * /verify would without probes or a near-copy (0 below one of the model's gates). The pointer
 * types share one model in the shipped tables and in a site fit, so the mouse model stands for
 * all three.
 */
export function pointerScore(table: ScoringTable, kernel: Float64Array): number {
  return sigmoid(modelLogit(table.types.mouse, { kernel }));
}

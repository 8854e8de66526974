import type { ScoringTable } from '../ScoringTable.js';
import { sigmoid, termContributions, trippedGate } from '../scoreFeatures.js';

/**
 * The score a table gives a pointer trace with these kernel features (FEATURE_NAMES order), as
 * /verify would without probes or a near-copy (0 below one of the model's gates). The pointer
 * types share one model in the shipped tables and in a site fit, so the mouse model stands for
 * all three.
 */
export function pointerScore(table: ScoringTable, kernel: Float64Array): number {
  const model = table.types.mouse;
  if (trippedGate(model, { kernel }) !== undefined) return 0;
  return sigmoid(termContributions(model, { kernel }).reduce((sum, part) => sum + part, model.bias));
}

import type { ScoringTable } from '../ScoringTable.js';
import { sigmoid, termContributions } from '../scoreFeatures.js';

/**
 * The score a table gives a pointer trace with these kernel features (FEATURE_NAMES order), as
 * /verify would without probes or a near-copy. The pointer types share one model in the shipped
 * tables and in a site fit, so the mouse model stands for all three.
 */
export function pointerScore(table: ScoringTable, kernel: Float64Array): number {
  const model = table.types.mouse;
  return sigmoid(termContributions(model, { kernel }).reduce((sum, part) => sum + part, model.bias));
}

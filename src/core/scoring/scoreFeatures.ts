import { FEATURE_NAMES, type FeatureName } from '../../kernel/features.js';
import type { InputTable, ScoringTable } from './ScoringTable.js';

const SLOT = new Map<FeatureName, number>(FEATURE_NAMES.map((name, i) => [name, i]));
const Z_LIMIT = 4;

/** Logit of one input type's model over the feature values (in FEATURE_NAMES order). */
export function featureLogit(model: InputTable, values: Float64Array): number {
  let logit = model.bias;
  for (const term of model.terms) {
    const raw = values[SLOT.get(term.feature)!]!;
    const x = term.transform === 'log' ? Math.log(0.01 + Math.max(0, raw)) : raw;
    const z = Math.min(Z_LIMIT, Math.max(-Z_LIMIT, (x - term.center) / term.scale));
    // A value that is not a number counts fully against, whatever the sign of the weight.
    logit += Number.isFinite(z) ? term.weight * (term.fold ? Math.abs(z) : z) : -Z_LIMIT * Math.abs(term.weight);
  }
  return logit;
}

/** Logit penalty of probe reactions too fast to be human. */
export function probeLogit(table: ScoringTable, reactionsMs: readonly number[]): number {
  let logit = 0;
  for (const r of reactionsMs) {
    const ms = Number.isFinite(r) ? Math.max(1, r) : 1;
    if (ms < table.probe.minReactionMs) logit -= table.probe.weight * Math.log(table.probe.minReactionMs / ms);
  }
  return logit;
}

export function sigmoid(logit: number): number {
  return 1 / (1 + Math.exp(-logit));
}

import type { InputTable, ScoredFeature } from '../ScoringTable.js';
import { REASON_OF_FEATURE, type ReasonCode } from './reasonCodes.js';

/** Most codes a low score is explained by. */
export const MAX_REASONS = 3;

/**
 * The codes of what pulled a score down most, at most MAX_REASONS, strongest first: a duplicate
 * first, then a tripped gate (ScoringGate), then the probe penalty and every term below the human
 * median (a negative part of the logit), each code once; of equal pulls, the term first in the
 * model's order (the probe after every term). Picked by a scan per code rather than a sort: it runs on every /verify scored
 * below the threshold, and makes no object per term.
 */
export function explainScore(
  model: InputTable,
  parts: { terms: Float64Array; probe: number; duplicate: boolean; gate?: ScoredFeature | undefined },
): ReasonCode[] {
  const { terms } = model;
  const codes: ReasonCode[] = parts.duplicate ? ['duplicate_trace'] : [];
  if (parts.gate !== undefined && !codes.includes(REASON_OF_FEATURE[parts.gate])) codes.push(REASON_OF_FEATURE[parts.gate]);
  const probe = terms.length;
  // The strongest pull left: the smallest part below 0 whose code is not named yet (every part
  // smaller than one picked has its code named already), the first of equal ones.
  while (codes.length < MAX_REASONS) {
    let bestBy = 0;
    let best: ReasonCode | undefined;
    for (let i = 0; i <= probe; i++) {
      const by = i === probe ? parts.probe : parts.terms[i]!;
      if (!(by < bestBy)) continue;
      const code = i === probe ? 'probe_reaction_too_fast' : REASON_OF_FEATURE[terms[i]!.feature];
      if (codes.includes(code)) continue;
      bestBy = by;
      best = code;
    }
    if (best === undefined) break;
    codes.push(best);
  }
  return codes;
}

import type { InputTable } from '../ScoringTable.js';
import { REASON_OF_FEATURE, type ReasonCode } from './reasonCodes.js';

/** Most codes a low score is explained by. */
export const MAX_REASONS = 3;

/**
 * The codes of what pulled a score down most, at most MAX_REASONS, strongest first: a duplicate
 * first, then the probe penalty and every term below the human median (a negative part of the
 * logit), each code once.
 */
export function explainScore(
  model: InputTable,
  parts: { terms: Float64Array; probe: number; duplicate: boolean },
): ReasonCode[] {
  const pulls: { code: ReasonCode; by: number }[] = model.terms.map((term, i) => ({ code: REASON_OF_FEATURE[term.feature], by: parts.terms[i]! }));
  pulls.push({ code: 'probe_reaction_too_fast', by: parts.probe });
  const codes: ReasonCode[] = parts.duplicate ? ['duplicate_trace'] : [];
  for (const { code } of pulls.filter((p) => p.by < 0).sort((a, b) => a.by - b.by)) {
    if (codes.length === MAX_REASONS) break;
    if (!codes.includes(code)) codes.push(code);
  }
  return codes;
}

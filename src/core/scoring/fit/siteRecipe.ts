import type { FeatureName } from '../../../kernel/features.js';
import type { InputTable, ScoringTerm } from '../ScoringTable.js';
import type { FitOptions } from './fitTable.js';

/**
 * How a site table's pointer model is fitted: as the shipped model it replaces was. The same
 * features with the same transforms (the ones the calibration left out, because the way its
 * pointing data is laid on mazes moves them, stay out), the same corridor-geometry terms bounded
 * together by the same floor, and signed terms that only lower a score when the shipped ones do.
 * So a site fit cannot make corridor geometry reject a person alone, nor let looking very human
 * on one feature buy back looking scripted on another. The shipped gates are kept as they are: a
 * site's sample is traffic the shipped table accepted, so a bound read from it again would only
 * ever rise.
 */
export function siteRecipe(shipped: InputTable): FitOptions & { features: [FeatureName, ScoringTerm['transform']][] } {
  const features = new Map<FeatureName, ScoringTerm['transform']>();
  const bounded = new Set<FeatureName>();
  let onlyLowers = false;
  for (const term of shipped.terms as ScoringTerm[]) {
    features.set(term.feature, term.transform);
    if (term.bounded) bounded.add(term.feature);
    if (term.onlyLowers) onlyLowers = true;
  }
  return {
    features: [...features],
    ...(bounded.size > 0 ? { bounded, boundedFloor: shipped.boundedFloor } : {}),
    onlyLowers,
    ...(shipped.gates !== undefined ? { gates: shipped.gates } : {}),
  };
}

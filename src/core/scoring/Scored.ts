import type { ReasonCode } from './reasons/reasonCodes.js';

/** What scoring measured, in the mode it ran in (for the dashboard and sampled traces). */
export interface Scored {
  mode: 'enforce' | 'shadow';
  score: number;
  /** Why the score is under the threshold (in either mode). */
  reasons: ReasonCode[];
  features: Float64Array;
}

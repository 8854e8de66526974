import type { MazeParams, PackedEvents, RawEvent } from '../../kernel/types.js';
import type { FeatureSource } from './FeatureSource.js';
import { defaultTable, type InputType, type ScoringTable } from './ScoringTable.js';
import type { TraceFingerprints } from './TraceFingerprints.js';
import { inferInputType } from './inferInputType.js';
import { featureLogit, probeLogit, sigmoid } from './scoreFeatures.js';

export interface ScoreDeps {
  kernel: FeatureSource;
  table?: ScoringTable;
  fingerprints: TraceFingerprints;
}

export interface ScoreInput {
  maze: MazeParams;
  /** The cell size of the canvas the path replay walked (the issued one or the deployed widget's). */
  cellSize: number;
  events: PackedEvents;
  rawEvents: readonly RawEvent[];
  /** Server-measured probe reaction times (arm to complete), ms. */
  probeReactionsMs?: readonly number[];
  /** Traces scoring at least this are remembered for duplicate detection (default: the table's). */
  threshold?: number;
}

export interface ScoreResult {
  /** In [0, 1]; 0 for a duplicate. */
  score: number;
  inputType: InputType;
  duplicate: boolean;
}

/**
 * Scores how human a submission's motion is: kernel features of the events, weighed by the
 * table of the inferred input type, lowered by implausibly fast probe reactions. A near-copy
 * of a recently accepted trace scores 0; a trace scoring at least the threshold is remembered.
 */
export async function scoreSubmission(deps: ScoreDeps, input: ScoreInput): Promise<ScoreResult> {
  const table = deps.table ?? defaultTable;
  const inputType = inferInputType(input.rawEvents);
  const { values, shape } = deps.kernel.features(input.maze, input.events, input.cellSize);
  const duplicate = await deps.fingerprints.has(shape);
  const logit = featureLogit(table.types[inputType], values) + probeLogit(table, input.probeReactionsMs ?? []);
  const score = duplicate ? 0 : sigmoid(logit);
  if (!duplicate && score >= (input.threshold ?? table.threshold)) await deps.fingerprints.remember(shape);
  return { score, inputType, duplicate };
}

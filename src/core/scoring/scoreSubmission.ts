import { packEvents } from '../../kernel/packEvents.js';
import type { MazeParams, PackedEvents, RawEvent } from '../../kernel/types.js';
import { dispatchedEvents } from './dispatchedEvents.js';
import type { FeatureSource } from './FeatureSource.js';
import { defaultTable, type InputTable, type InputType, type ScoringTable } from './ScoringTable.js';
import type { TraceFingerprints } from './TraceFingerprints.js';
import type { VerifyStageObserver } from '../verify/VerifyStageObserver.js';
import { inferInputType } from './inferInputType.js';
import { measureKeyboard } from './keyboard/measureKeyboard.js';
import { readKeystrokes } from './keyboard/readKeystrokes.js';
import { explainScore } from './reasons/explainScore.js';
import type { ReasonCode } from './reasons/reasonCodes.js';
import { probeLogit, sigmoid, termContributions, trippedGate } from './scoreFeatures.js';

export interface ScoreDeps {
  kernel: FeatureSource;
  table?: ScoringTable;
  fingerprints: TraceFingerprints;
  /**
   * The model a keyboard solve is scored by instead of the table's (the strict keyboard model, in
   * a keyboard surge); the table's own still gives `tableScore`.
   */
  keyboardModel?: InputTable | undefined;
  /** Told as the features, the duplicate lookup, the score and the remembering end (/verify's stage account). */
  stages?: VerifyStageObserver | undefined;
}

export interface ScoreInput {
  maze: MazeParams;
  /** The cell size of the canvas the path replay walked (the issued one or the deployed widget's). */
  cellSize: number;
  /** `rawEvents` packed (path replay's input), reused when no event was coalesced. */
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
  /** The model that gave `score`. */
  model: InputTable;
  /** The score the table's own model gives (`score` unless `keyboardModel` scored a keyboard solve); 0 for a duplicate. */
  tableScore: number;
  duplicate: boolean;
  /** Below the threshold: what pulled the score down most (explainScore); otherwise empty. */
  reasons: ReasonCode[];
  /** The kernel's features of the trace (FEATURE_NAMES order), for sampled traces. */
  features: Float64Array;
}

/**
 * Scores how human a submission's motion is: kernel features of the events the page dispatched
 * (coalesced reports set aside: dispatchedEvents), and for a keyboard solve the keyboard features
 * of its keystrokes over the maze, weighed by the table of the inferred input type, lowered by implausibly fast probe reactions. A near-copy of a recently
 * accepted trace scores 0; a trace scoring at least the threshold is remembered, one scoring
 * below it is explained by reason codes.
 */
export async function scoreSubmission(deps: ScoreDeps, input: ScoreInput): Promise<ScoreResult> {
  const table = deps.table ?? defaultTable;
  const threshold = input.threshold ?? table.threshold;
  const events = dispatchedEvents(input.rawEvents);
  const packed = events === input.rawEvents ? input.events : packEvents(events);
  const inputType = inferInputType(events);
  const { values, shape } = deps.kernel.features(input.maze, packed, input.cellSize);
  const maze = inputType === 'keyboard' ? deps.kernel.generateMaze(input.maze) : undefined;
  const keyboard = maze !== undefined ? measureKeyboard(maze, readKeystrokes(maze, events)) : undefined;
  deps.stages?.('features');
  const duplicate = await deps.fingerprints.has(shape);
  deps.stages?.('duplicateLookup');
  const own = table.types[inputType];
  const model = inputType === 'keyboard' ? (deps.keyboardModel ?? own) : own;
  const probe = probeLogit(table, input.probeReactionsMs ?? []);
  const scoreBy = (m: InputTable) => {
    const terms = termContributions(m, { kernel: values, keyboard });
    const gate = trippedGate(m, { kernel: values, keyboard });
    return { terms, gate, score: duplicate || gate !== undefined ? 0 : sigmoid(terms.reduce((sum, c) => sum + c, m.bias + probe)) };
  };
  const { terms, gate, score } = scoreBy(model);
  const tableScore = model === own ? score : scoreBy(own).score;
  const reasons = score < threshold ? explainScore(model, { terms, probe, duplicate, gate }) : [];
  deps.stages?.('scoring');
  if (!duplicate && score >= threshold) await deps.fingerprints.remember(shape);
  deps.stages?.('remember');
  return { score, inputType, model, tableScore, duplicate, reasons, features: values };
}

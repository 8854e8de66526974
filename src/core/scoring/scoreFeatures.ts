import { FEATURE_NAMES } from '../../kernel/features.js';
import { KEYBOARD_FEATURE_NAMES } from './keyboard/measureKeyboard.js';
import type { InputTable, ScoredFeature, ScoringTable } from './ScoringTable.js';

/** What one submission was measured on: kernel features, and keyboard ones for a keyboard solve. */
export interface MeasuredFeatures {
  /** In FEATURE_NAMES order. */
  kernel: Float64Array;
  /** In KEYBOARD_FEATURE_NAMES order; absent for pointer solves. */
  keyboard?: Float64Array | undefined;
}

const KERNEL_SLOT = new Map<string, number>(FEATURE_NAMES.map((name, i) => [name, i]));
const KEYBOARD_SLOT = new Map<string, number>(KEYBOARD_FEATURE_NAMES.map((name, i) => [name, i]));
const Z_LIMIT = 4;

function valueOf(feature: ScoredFeature, measured: MeasuredFeatures): number {
  const k = KERNEL_SLOT.get(feature);
  if (k !== undefined) return measured.kernel[k]!;
  return measured.keyboard?.[KEYBOARD_SLOT.get(feature)!] ?? NaN;
}

/**
 * Each term's part of the logit (weight * clamped z), in the model's term order. When the
 * bounded terms together would lower the logit by more than the model's boundedFloor, each of
 * them is scaled down alike so that together they lower it by exactly that much.
 */
export function termContributions(model: InputTable, measured: MeasuredFeatures): Float64Array {
  const parts = unboundedContributions(model, measured);
  if (model.boundedFloor === undefined) return parts;
  let bounded = 0;
  model.terms.forEach((term, i) => {
    if (term.bounded) bounded += parts[i]!;
  });
  if (bounded >= -model.boundedFloor) return parts;
  const scale = model.boundedFloor / -bounded;
  model.terms.forEach((term, i) => {
    if (term.bounded) parts[i]! *= scale;
  });
  return parts;
}

function unboundedContributions(model: InputTable, measured: MeasuredFeatures): Float64Array {
  // A loop rather than Float64Array.from(terms, fn): no iterator and no call per term.
  const parts = new Float64Array(model.terms.length);
  for (let i = 0; i < parts.length; i++) parts[i] = contribution(model.terms[i]!, measured);
  return parts;
}

function contribution(term: InputTable['terms'][number], measured: MeasuredFeatures): number {
  const raw = valueOf(term.feature, measured);
  if (Number.isNaN(raw) && term.missing !== undefined) return term.weight * term.missing;
  const x = term.transform === 'log' ? Math.log(0.01 + Math.max(0, raw)) : raw;
  const z = Math.min(Z_LIMIT, Math.max(-Z_LIMIT, (x - term.center) / term.scale));
  // A value that is not a number counts fully against, whatever the sign of the weight.
  if (!Number.isFinite(z)) return -Z_LIMIT * Math.abs(term.weight);
  const part = term.weight * (term.fold ? Math.abs(z) : z);
  return term.onlyLowers && part > 0 ? 0 : part;
}

/** The first of the model's gates the measured values fall below (ScoringGate), if any. */
export function trippedGate(model: InputTable, measured: MeasuredFeatures): ScoredFeature | undefined {
  if (model.gates === undefined) return undefined;
  for (const gate of model.gates) if (valueOf(gate.feature, measured) < gate.below) return gate.feature;
  return undefined;
}

/**
 * The logit `model` gives `measured` without probes or a near-copy (scoreSubmission's, before the
 * sigmoid): -Infinity below one of its gates. For fits and calibration, which score rows of
 * features rather than submissions.
 */
export function modelLogit(model: InputTable, measured: MeasuredFeatures): number {
  if (trippedGate(model, measured) !== undefined) return -Infinity;
  return termContributions(model, measured).reduce((sum, part) => sum + part, model.bias);
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

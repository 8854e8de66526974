import { FEATURE_NAMES, type FeatureName } from '../../../kernel/features.js';
import type { InputTable, ScoringGate, ScoringTerm } from '../ScoringTable.js';

/** Pointer features the model weighs (counts, absolute sizes and sanity fields are left out). */
export const MODEL_FEATURES: readonly [FeatureName, ScoringTerm['transform']][] = [
  ['efficiency_ratio', 'identity'],
  ['interval_cv', 'log'],
  ['interval_entropy', 'identity'],
  ['interval_kurtosis', 'log'],
  ['interval_max', 'log'],
  ['speed_cv', 'log'],
  ['speed_peak_ratio', 'log'],
  ['acceleration_norm', 'log'],
  ['acceleration_cv', 'log'],
  ['jerk_norm', 'log'],
  ['speed_autocorrelation', 'identity'],
  ['curvature', 'log'],
  ['turn_mean', 'log'],
  ['angular_entropy', 'identity'],
  ['pause_fraction', 'log'],
  ['submovement_rate', 'log'],
  ['corridor_deviation', 'log'],
  ['corridor_deviation_sd', 'log'],
  ['on_rail_fraction', 'identity'],
  ['jitter_ratio', 'log'],
  ['speed_roughness', 'log'],
  ['step_roughness', 'log'],
  ['submovement_rise', 'identity'],
  ['submovement_gap_cv', 'identity'],
];

const slot = (name: FeatureName) => FEATURE_NAMES.indexOf(name);
const tf = (t: ScoringTerm['transform'], v: number) => (t === 'log' ? Math.log(0.01 + Math.max(0, v)) : v);

function quantile(sorted: readonly number[], p: number): number {
  const i = (sorted.length - 1) * p;
  const lo = Math.floor(i);
  return sorted[lo]! + (sorted[Math.min(lo + 1, sorted.length - 1)]! - sorted[lo]!) * (i - lo);
}

export interface Labelled {
  values: Float64Array;
  human: boolean;
  /** Sum of weights per class is 1: humans weighted per user, bots per family. */
  weight: number;
}

export interface FitOptions {
  /** The features weighed, each with its transform (default MODEL_FEATURES). */
  features?: readonly (readonly [FeatureName, ScoringTerm['transform']])[];
  /** Features whose terms are bounded together (InputTable.boundedFloor). */
  bounded?: ReadonlySet<FeatureName>;
  /** The most the bounded terms together may lower the logit; needed with `bounded`. */
  boundedFloor?: number;
  /** Signed terms count only where they lower the score (ScoringTerm.onlyLowers). */
  onlyLowers?: boolean;
  /** Gates the model keeps as given (ScoringGate): a value below one refuses alone. Default none. */
  gates?: readonly ScoringGate[];
  /** L2 penalty. */
  lambda?: number;
  iterations?: number;
}

/**
 * Fits a logistic model: features centred on the human median and scaled by the human
 * interquartile range, clipped to +-4, with L2 regularisation (so no single feature decides).
 * Each feature enters twice: as z (a direction the bots taught) and folded, as |z| with a
 * weight kept at or below 0, so a trace far from people in any direction loses score even
 * where no bot in the fit went. The bounded features' terms are fitted as the scorer applies
 * them: together they lower the logit by at most `boundedFloor`.
 */
export function fitTable(data: readonly Labelled[], opts: FitOptions = {}): InputTable {
  const { features = MODEL_FEATURES, bounded = new Set<FeatureName>(), onlyLowers = false, lambda = 0.02, iterations = 3000 } = opts;
  const floor = bounded.size > 0 ? opts.boundedFloor : undefined;
  if (bounded.size > 0 && floor === undefined) throw new Error('bounded features need a boundedFloor');
  const linear: ScoringTerm[] = features.map(([feature, transform]) => {
    const xs = data
      .filter((d) => d.human)
      .map((d) => tf(transform, d.values[slot(feature)]!))
      .sort((a, b) => a - b);
    const iqr = quantile(xs, 0.75) - quantile(xs, 0.25);
    return {
      feature,
      transform,
      center: quantile(xs, 0.5),
      scale: Math.max(iqr / 1.349, 1e-3),
      weight: 0,
      ...(onlyLowers ? { onlyLowers: true } : {}),
      ...(bounded.has(feature) ? { bounded: true } : {}),
    };
  });
  const terms: ScoringTerm[] = [...linear, ...linear.map(({ onlyLowers: _, ...t }) => ({ ...t, fold: true }))];
  const hinged = terms.map((t) => t.onlyLowers === true);
  const isBounded = terms.map((t) => t.bounded === true);
  const z = data.map((d) =>
    terms.map((t) => {
      const v = Math.min(4, Math.max(-4, (tf(t.transform, d.values[slot(t.feature)]!) - t.center) / t.scale));
      return t.fold ? Math.abs(v) : v;
    }),
  );
  const w = new Float64Array(terms.length);
  let bias = 0;
  // Adam on the weighted log-loss.
  const m = new Float64Array(terms.length + 1),
    v = new Float64Array(terms.length + 1);
  const total = data.reduce((s, d) => s + d.weight, 0);
  for (let it = 1; it <= iterations; it++) {
    const g = new Float64Array(terms.length + 1);
    data.forEach((d, i) => {
      let free = bias,
        held = 0;
      const zi = z[i]!;
      for (let k = 0; k < terms.length; k++) {
        const part = w[k]! * zi[k]!;
        if (hinged[k] && part > 0) continue;
        if (isBounded[k]) held += part;
        else free += part;
      }
      const floored = floor !== undefined && held < -floor;
      const logit = free + (floored ? -floor : held);
      const err = (1 / (1 + Math.exp(-logit)) - (d.human ? 1 : 0)) * (d.weight / total);
      for (let k = 0; k < terms.length; k++) {
        if ((floored && isBounded[k]) || (hinged[k] && w[k]! * zi[k]! > 0)) continue;
        g[k]! += err * zi[k]!;
      }
      g[terms.length]! += err;
    });
    for (let k = 0; k < terms.length; k++) g[k]! += lambda * w[k]!;
    for (let k = 0; k <= terms.length; k++) {
      m[k] = 0.9 * m[k]! + 0.1 * g[k]!;
      v[k] = 0.999 * v[k]! + 0.001 * g[k]! * g[k]!;
      const step = (0.05 * (m[k]! / (1 - 0.9 ** it))) / (Math.sqrt(v[k]! / (1 - 0.999 ** it)) + 1e-8);
      if (k < terms.length) w[k] = terms[k]!.fold ? Math.min(0, w[k]! - step) : w[k]! - step;
      else bias -= step;
    }
  }
  const round = (x: number) => Number(x.toPrecision(5));
  return {
    bias: round(bias),
    terms: terms
      .map((t, k) => ({ ...t, center: round(t.center), scale: round(t.scale), weight: round(w[k]!) }))
      .filter((t) => !t.fold || t.weight !== 0),
    ...(floor !== undefined ? { boundedFloor: floor } : {}),
    ...(opts.gates !== undefined && opts.gates.length > 0 ? { gates: opts.gates.map((g) => ({ ...g })) } : {}),
  };
}

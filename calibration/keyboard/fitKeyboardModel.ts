import type { InputTable, ScoringGate, ScoringTerm } from '../../src/core/scoring/ScoringTable.js';
import { KEYBOARD_FEATURE_NAMES, type KeyboardFeatureName } from '../../src/core/scoring/keyboard/measureKeyboard.js';
import { modelLogit, termContributions, trippedGate } from '../../src/core/scoring/scoreFeatures.js';

/**
 * Keyboard features the model weighs, with the transform each is centred and scaled in and
 * whether it is folded. Signed: whether keys come up, and how the gaps follow the maze and the
 * keys. Folded (|z|, weight kept at or below 0, so they can only lower a score): the holds' size
 * and spread and the gaps' spread, which describe a person's keystrokes whatever the maze. Signed,
 * those would let a script through for holds and gaps like a person's: one that replays a
 * person's own holds and gaps in shuffled order (`shuffled-person`) passed 38% with them signed.
 * Folded they only refuse what no modelled person shows (a constant hold, a fixed rhythm).
 */
export const KEYBOARD_MODEL: readonly [KeyboardFeatureName, ScoringTerm['transform'], 'fold'?][] = [
  ['keyboard_keyup_fraction', 'identity'],
  ['keyboard_hold_median', 'log', 'fold'],
  ['keyboard_hold_spread', 'log', 'fold'],
  ['keyboard_gap_spread', 'log', 'fold'],
  ['keyboard_decision_contrast', 'identity'],
  ['keyboard_choice_contrast', 'identity'],
  ['keyboard_key_gap_share', 'identity'],
  ['keyboard_gap_structure', 'identity'],
];

/**
 * What refuses a keyboard solve alone (ScoringGate), whatever the bias: no keyups (a script
 * dispatching keydowns only) and gaps of one length (a fixed rhythm). Set well below every modelled
 * person (over 2,000 solves of each model, default and varied mazes: keyups at least 0.857 of
 * presses, a gap spread of at least 0.030 for 999 in 1,000 and 0.001 once), so they stay machine
 * signatures however far the bias moves towards people.
 */
export const KEYBOARD_GATES: readonly ScoringGate<KeyboardFeatureName>[] = [
  { feature: 'keyboard_keyup_fraction', below: 0.75 },
  { feature: 'keyboard_gap_spread', below: 0.015 },
];

/**
 * The share of every people model the shipped keyboard bias accepts on calibration solves. People
 * first: timing cannot tell a breath-paced or scan-paced person from a script drawing the same gaps
 * blind to the maze (calibration/README.md, "What where the gaps fall can tell"), so the bias is
 * placed for people, and chosen so that a people model left out of fitting still reaches 97%.
 */
export const PEOPLE_FIRST_SHARE = 0.999;

/** Smallest scale of a term: a feature nearly constant among people must not turn a small difference into -4. */
const MIN_SCALE = 0.2;
/** A feature the solve gives too little to measure counts as this many scales to the script side. */
const MISSING_PULL = 1;

export interface KeyboardLabelled {
  /** In KEYBOARD_FEATURE_NAMES order. */
  values: Float64Array;
  human: boolean;
  /** Each class's weights sum to 1 (bots: per family). */
  weight: number;
}

const slot = (name: KeyboardFeatureName) => KEYBOARD_FEATURE_NAMES.indexOf(name);
const transformed = (t: ScoringTerm['transform'], v: number) => (t === 'log' ? Math.log(0.01 + Math.max(0, v)) : v);

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/**
 * Logistic model of the keyboard features, behind KEYBOARD_GATES, by Newton's method (iteratively reweighted least
 * squares) with an L2 penalty: each feature centred on the modelled people's median, scaled by
 * their interquartile range (at least MIN_SCALE), clipped to +-4; an unmeasurable feature
 * counts MISSING_PULL scales towards scripts.
 */
export function fitKeyboardModel(all: readonly KeyboardLabelled[], lambda = 0.01, rounds = 30): InputTable {
  // The terms weigh what gets past the gates: a solve they refuse says nothing about the rest.
  const gatesOnly: InputTable = { bias: 0, terms: [], gates: [...KEYBOARD_GATES] };
  const data = all.filter((d) => trippedGate(gatesOnly, { kernel: new Float64Array(0), keyboard: d.values }) === undefined);
  const terms = KEYBOARD_MODEL.map(([feature, transform, fold]) => {
    const xs = data
      .filter((d) => d.human)
      .map((d) => transformed(transform, d.values[slot(feature)]!))
      .filter(Number.isFinite);
    const s = [...xs].sort((a, b) => a - b);
    const iqr = s[Math.floor(s.length * 0.75)]! - s[Math.floor(s.length * 0.25)]!;
    return {
      feature,
      transform,
      center: median(xs),
      scale: Math.max(iqr / 1.349, MIN_SCALE),
      ...(fold === undefined ? {} : { fold: true }),
    };
  });
  const k = terms.length + 1;
  const beta = new Array<number>(k).fill(0);
  // The rows are the scorer's own z (unit weights), an unmeasurable value pulled against the current sign.
  const zRows = () => {
    const unit: InputTable = {
      bias: 0,
      terms: terms.map((t, i) => ({ ...t, weight: 1, missing: missingPull(beta[i + 1]!) })),
    };
    return data.map((d) => [1, ...termContributions(unit, { kernel: new Float64Array(0), keyboard: d.values })]);
  };
  for (let round = 0; round < rounds; round++) {
    const rows = zRows();
    const grad = new Array<number>(k).fill(0);
    const hess = Array.from({ length: k }, () => new Array<number>(k).fill(0));
    rows.forEach((x, i) => {
      const p = 1 / (1 + Math.exp(-x.reduce((s, v, j) => s + v * beta[j]!, 0)));
      const w = data[i]!.weight;
      for (let a = 0; a < k; a++) {
        grad[a]! += w * (p - (data[i]!.human ? 1 : 0)) * x[a]!;
        for (let b = 0; b < k; b++) hess[a]![b]! += w * p * (1 - p) * x[a]! * x[b]!;
      }
    });
    for (let a = 1; a < k; a++) {
      grad[a]! += lambda * beta[a]!;
      hess[a]![a]! += lambda;
    }
    const step = solve(hess, grad);
    for (let a = 0; a < k; a++) beta[a]! -= step[a]!;
    // A folded term may only lower a score (projected Newton: clamped after the step).
    terms.forEach((t, i) => {
      if (t.fold === true) beta[i + 1] = Math.min(0, beta[i + 1]!);
    });
  }
  const round = (x: number) => Number(x.toPrecision(5));
  return {
    bias: round(beta[0]!),
    gates: [...KEYBOARD_GATES],
    terms: terms.map((t, i) => ({
      feature: t.feature,
      transform: t.transform,
      ...(t.fold === true ? { fold: true } : {}),
      center: round(t.center),
      scale: round(t.scale),
      weight: round(beta[i + 1]!),
      missing: missingPull(beta[i + 1]!),
    })),
  };
}

/** What an unmeasurable value counts for, in scales: towards scripts against the sign of `weight`. */
function missingPull(weight: number): number {
  return -MISSING_PULL * Math.sign(weight);
}

/** Solves a x = b by Gaussian elimination with partial pivoting. */
function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let c = 0; c < n; c++) {
    let pivot = c;
    for (let r = c + 1; r < n; r++) if (Math.abs(m[r]![c]!) > Math.abs(m[pivot]![c]!)) pivot = r;
    [m[c], m[pivot]] = [m[pivot]!, m[c]!];
    for (let r = c + 1; r < n; r++) {
      const f = m[r]![c]! / m[c]![c]!;
      for (let j = c; j <= n; j++) m[r]![j]! -= f * m[c]![j]!;
    }
  }
  const x = new Array<number>(n).fill(0);
  for (let r = n - 1; r >= 0; r--) {
    let s = m[r]![n]!;
    for (let j = r + 1; j < n; j++) s -= m[r]![j]! * x[j]!;
    x[r] = s / m[r]![r]!;
  }
  return x;
}

/** The logit of a keyboard solve's features (KEYBOARD_FEATURE_NAMES order) under `model` (modelLogit). */
export function keyboardLogit(model: InputTable, values: Float64Array): number {
  return modelLogit(model, { kernel: new Float64Array(0), keyboard: values });
}

/**
 * `model` with its bias placed so that the worst of `people` (each model's calibration solves)
 * has exactly `share` of its solves at or above `cutLogit` (the threshold's logit): raised where
 * the fit refuses more, lowered where it refuses fewer. A solve below a gate counts as refused
 * whatever the bias.
 */
export function placeBiasForPeople(
  model: InputTable,
  people: readonly (readonly Float64Array[])[],
  share: number,
  cutLogit: number,
): InputTable {
  let shift = -Infinity;
  for (const solves of people) {
    const logits = solves.map((v) => keyboardLogit(model, v)).sort((a, b) => b - a);
    const needed = logits[Math.min(logits.length - 1, Math.ceil(share * logits.length) - 1)]!;
    shift = Math.max(shift, cutLogit - needed);
  }
  if (!Number.isFinite(shift)) throw new Error('a people model has too many solves below a gate to place the bias');
  // Rounded up, so the written bias never falls short of the share.
  return { ...model, bias: Math.ceil((model.bias + shift) * 1e4) / 1e4 };
}

// `npm run calibrate:keyboard [-- --fit]`: the keyboard model against keyboard scripts and MODELS
// of people (keyboardPeople.ts: sighted, screen-reader explorers, switch scanning, sip-and-puff;
// there is no human keyboard data). Fits (with --fit) the keyboard part of the v3 table, then
// reports acceptance on held-out solves with Wilson 95% CIs: each people model also when it was
// left out of fitting, each script family also when it was left out of fitting.
import { readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultTable, type InputTable, type ScoringTable } from '../../src/core/scoring/ScoringTable.js';
import { TraceFingerprints } from '../../src/core/scoring/TraceFingerprints.js';
import { measureKeyboard } from '../../src/core/scoring/keyboard/measureKeyboard.js';
import { gapPlacement, ranks } from '../../src/core/scoring/keyboard/gapPlacement.js';
import { readKeystrokes } from '../../src/core/scoring/keyboard/readKeystrokes.js';
import { groupWeights } from '../../src/core/scoring/fit/groupWeights.js';
import { scoreSubmission } from '../../src/core/scoring/scoreSubmission.js';
import { MemoryStore } from '../../src/store/MemoryStore.js';
import { CELL } from '../people/mazePath.js';
import { openKernel } from '../samples.js';
import { Rng } from '../random.js';
import { type Rate, pct, wilson } from '../stats.js';
import { HOLD_STYLES, INDEPENDENT_GAP_FAMILIES, KEYBOARD_BOT_FAMILIES, NEVER_FITTED, OWN_HOLDS } from './keyboardBots.js';
import { type KeyboardLabelled, PEOPLE_FIRST_SHARE, fitKeyboardModel, keyboardLogit, placeBiasForPeople } from './fitKeyboardModel.js';
import { FULL_MODEL, type HumanAssumptions } from './humanKeyboard.js';
import { KEYBOARD_PEOPLE } from './keyboardPeople.js';
import { type KeyboardSample, type MazeSpread, isPerson, keyboardSamples } from './keyboardSamples.js';
import { placementPValue } from './placementTest.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');
const tableFile = path.resolve(repoRoot, 'src/core/scoring/tables/v3.json');
const resultsFile = path.resolve(here, '../results/keyboard.json');
const fit = process.argv.includes('--fit');
/** Solves per people model and per script family: fitted (per maze spread), then held out. */
const SIZES = { fitPeople: 600, fitBots: 300, people: 1000, bots: 600 };
const FITTED_FAMILIES = KEYBOARD_BOT_FAMILIES.filter((f) => !NEVER_FITTED.includes(f));

const kernel = await openKernel(new URL('../../build/kernel.wasm', import.meta.url));
/** A duplicate memory of one trace (small: a large one takes milliseconds to set up). */
const fresh = () => new MemoryStore({ maxMarkers: 10, maxCounters: 10, maxLists: 16 });

interface Measured {
  kind: KeyboardSample['kind'];
  values: Float64Array;
}

function measured(samples: readonly KeyboardSample[]): Measured[] {
  return samples.map((s) => {
    const maze = kernel.generateMaze(s.maze);
    return { kind: s.kind, values: measureKeyboard(maze, readKeystrokes(maze, s.events)) };
  });
}

/** People weighted to 1 in all, each people model alike; scripts to 1, each family alike. */
function labelled(data: readonly Measured[]): KeyboardLabelled[] {
  const weights = groupWeights(
    data,
    (d) => isPerson(d.kind),
    (d) => d.kind,
  );
  return data.map((d, i) => ({ values: d.values, human: isPerson(d.kind), weight: weights[i]! }));
}

const fitSet = (seed: number, spread: MazeSpread) => [
  ...KEYBOARD_PEOPLE.flatMap((p, i) => keyboardSamples(kernel, p, SIZES.fitPeople, seed + 50 + i, spread)),
  ...FITTED_FAMILIES.flatMap((f) => keyboardSamples(kernel, f, SIZES.fitBots, seed + 100 + KEYBOARD_BOT_FAMILIES.indexOf(f), spread)),
];
const calibration = measured([...fitSet(1_000, 'varied'), ...fitSet(2_000, 'default')]);
const cut = Math.log(defaultTable.threshold / (1 - defaultTable.threshold));
/** The keyboard model fitted on `data`, its bias placed for the people models in it at `share`. */
function keyboardFit(data: readonly Measured[], share = PEOPLE_FIRST_SHARE): InputTable {
  const people = KEYBOARD_PEOPLE.map((p) => data.filter((d) => d.kind === p).map((d) => d.values)).filter((xs) => xs.length > 0);
  return placeBiasForPeople(fitKeyboardModel(labelled(data)), people, share, cut);
}
const fitWithout = (left: KeyboardSample['kind']) => withKeyboard(keyboardFit(calibration.filter((d) => d.kind !== left)));

let table: ScoringTable = defaultTable;
if (fit) {
  table = withKeyboard(keyboardFit(calibration));
  const file = JSON.parse(readFileSync(tableFile, 'utf8')) as ScoringTable;
  writeFileSync(tableFile, `${JSON.stringify({ ...file, types: { ...file.types, keyboard: table.types.keyboard } }, null, 2)}\n`);
  console.log(`keyboard model written to ${path.relative(repoRoot, tableFile)}`);
}
const threshold = table.threshold;

function withKeyboard(keyboard: InputTable): ScoringTable {
  return { ...defaultTable, types: { ...defaultTable.types, keyboard } };
}

interface Outcome {
  sample: KeyboardSample;
  replays: boolean;
  /** The scorer alone, with a duplicate memory of its own. */
  scorer: boolean;
  /** As /verify: replay, then the score with one duplicate memory per group. */
  endToEnd: boolean;
  /** Span of the events, s: what the challenge's life has to cover. */
  seconds: number;
}

async function outcomes(t: ScoringTable, samples: readonly KeyboardSample[]): Promise<Outcome[]> {
  const shared = new TraceFingerprints(new MemoryStore({ maxMarkers: 10, maxCounters: 10 }));
  const out: Outcome[] = [];
  for (const sample of samples) {
    const packed = kernel.packEvents(sample.events);
    const input = { maze: sample.maze, cellSize: CELL, events: packed, rawEvents: sample.events, threshold };
    const alone = await scoreSubmission({ kernel, table: t, fingerprints: new TraceFingerprints(fresh()) }, input);
    const replays = kernel.replay(sample.maze, packed, CELL, { kind: 'verify' }).valid;
    const served = replays ? await scoreSubmission({ kernel, table: t, fingerprints: shared }, input) : undefined;
    const seconds = (sample.events.at(-1)!.t - sample.events[0]!.t) / 1000;
    out.push({ sample, replays, scorer: alone.score >= threshold, endToEnd: served !== undefined && served.score >= threshold, seconds });
  }
  return out;
}

const rate = (xs: readonly Outcome[], key: 'replays' | 'scorer' | 'endToEnd'): Rate => wilson(xs.filter((x) => x[key]).length, xs.length);
const quantile = (xs: readonly number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!;
const heldOutPeople = (kind: (typeof KEYBOARD_PEOPLE)[number], spread: MazeSpread) =>
  keyboardSamples(kernel, kind, SIZES.people, 9_000 + KEYBOARD_PEOPLE.indexOf(kind), spread);
const heldOutBots = (family: (typeof KEYBOARD_BOT_FAMILIES)[number], spread: MazeSpread) =>
  keyboardSamples(kernel, family, SIZES.bots, 9_100 + KEYBOARD_BOT_FAMILIES.indexOf(family), spread);
const label = (kind: KeyboardSample['kind']) =>
  isPerson(kind)
    ? `${kind} (MODEL)`
    : `${kind}${NEVER_FITTED.includes(kind) ? ' (never fitted)' : INDEPENDENT_GAP_FAMILIES.includes(kind) ? '' : ' (knows the maze)'}`;

const report: Record<string, unknown> = {
  threshold,
  sizes: SIZES,
  heldOut: {},
  durations: {},
  leaveOnePersonOut: {},
  leaveOneFamilyOut: {},
};
const row = (name: string, n: number, cells: string[]) =>
  console.log(`  ${name.padEnd(34)}${String(n).padStart(6)}  ${cells.map((c) => c.padEnd(26)).join('')}`);
for (const spread of ['default', 'varied'] as const) {
  console.log(
    `\nheld-out keyboard solves, ${spread === 'default' ? 'the default maze (8x8, difficulty 0.3)' : 'varied mazes (5-12 a side, difficulty 0.1-0.9)'}, threshold ${threshold} (Wilson 95% CI):`,
  );
  row('', 0, ['replay passes', 'scorer accepts', 'end to end accepts']);
  const groups: [KeyboardSample['kind'], KeyboardSample[]][] = [
    ...KEYBOARD_PEOPLE.map((p): [KeyboardSample['kind'], KeyboardSample[]] => [p, heldOutPeople(p, spread)]),
    ...KEYBOARD_BOT_FAMILIES.map((f): [KeyboardSample['kind'], KeyboardSample[]] => [f, heldOutBots(f, spread)]),
  ];
  const results: Record<string, unknown> = {};
  for (const [kind, samples] of groups) {
    const got = await outcomes(table, samples);
    const r = { replay: rate(got, 'replays'), scorer: rate(got, 'scorer'), endToEnd: rate(got, 'endToEnd') };
    results[kind] = r;
    row(label(kind), samples.length, [pct(r.replay), pct(r.scorer), pct(r.endToEnd)]);
    if (isPerson(kind)) {
      const s = got.map((o) => o.seconds);
      (report.durations as Record<string, unknown>)[`${kind}, ${spread}`] = {
        median: quantile(s, 0.5),
        p90: quantile(s, 0.9),
        p99: quantile(s, 0.99),
        max: Math.max(...s),
      };
      continue;
    }
    if (OWN_HOLDS.includes(kind)) continue;
    for (const h of HOLD_STYLES) {
      const some = got.filter((o) => o.sample.holdStyle === h);
      results[`${kind}, keyups ${h}`] = { scorer: rate(some, 'scorer') };
      row(`  keyups ${h}`, some.length, ['', pct(rate(some, 'scorer')), '']);
    }
  }
  (report.heldOut as Record<string, unknown>)[spread] = results;
}

// The trade-off: the bias placed for people at other shares of every people model on calibration
// solves (the shipped table: PEOPLE_FIRST_SHARE), measured held out, and with each people model
// left out of fitting and of placing the bias (what a person unlike every model meets).
const heldOutValues = new Map<KeyboardSample['kind'], Float64Array[]>(
  [
    ...KEYBOARD_PEOPLE.map((p) => [p, heldOutPeople(p, 'varied')] as const),
    ...KEYBOARD_BOT_FAMILIES.map((f) => [f, heldOutBots(f, 'varied')] as const),
  ].map(([k, samples]) => [k, measured(samples).map((m) => m.values)]),
);
const acceptedBy = (model: InputTable, kind: KeyboardSample['kind']): Rate => {
  const xs = heldOutValues.get(kind)!;
  return wilson(xs.filter((v) => keyboardLogit(model, v) >= cut).length, xs.length);
};
const SHARES = [0.97, 0.99, 0.995, 0.999];
console.log(
  `\nthe trade-off: the bias placed so every people model reaches a share of its calibration solves; held out, varied mazes (people: fitted on all / that model left out):`,
);
row('share of every people model', 0, [...KEYBOARD_PEOPLE, 'worst independent-gap', 'decision-pause']);
report.tradeOff = {};
for (const share of SHARES) {
  const all = keyboardFit(calibration, share);
  const people = KEYBOARD_PEOPLE.map((p) => ({
    fitted: acceptedBy(all, p),
    leftOut: acceptedBy(
      keyboardFit(
        calibration.filter((d) => d.kind !== p),
        share,
      ),
      p,
    ),
  }));
  const families = Object.fromEntries(KEYBOARD_BOT_FAMILIES.map((f) => [f, acceptedBy(all, f)]));
  const w = INDEPENDENT_GAP_FAMILIES.reduce((a, b) => (families[b]!.rate > families[a]!.rate ? b : a));
  (report.tradeOff as Record<string, unknown>)[share] = {
    bias: all.bias,
    people: Object.fromEntries(KEYBOARD_PEOPLE.map((p, i) => [p, people[i]])),
    families,
  };
  const cells = [
    ...people.map((r) => `${pct(r.fitted).split(' ')[0]} / ${pct(r.leftOut).split(' ')[0]}`),
    `${w} ${pct(families[w]!).split(' ')[0]}`,
    pct(families['decision-pause']!).split(' ')[0]!,
  ];
  row(`${share}${share === PEOPLE_FIRST_SHARE ? ' (the table)' : ''}`, 0, cells);
}

// What where the gaps fall can tell alone, with no fitting: an exact permutation test
// (placementTest.ts) holds every script with exchangeable gaps to its level a whatever it draws,
// so the share of each people model it passes at a is the most that evidence gives at that level.
const LEVELS = [0.01, 0.02, 0.05, 0.1];
const PERMUTATIONS = 199;
console.log(`\nwhere the gaps fall, alone (exact permutation test, ${PERMUTATIONS} shuffles; held out, varied mazes): share with p <= a`);
row(
  '',
  0,
  LEVELS.map((a) => `a = ${a}`),
);
report.placementTest = {};
for (const [i, kind] of [...KEYBOARD_PEOPLE, ...INDEPENDENT_GAP_FAMILIES].entries()) {
  const samples = isPerson(kind) ? heldOutPeople(kind, 'varied') : heldOutBots(kind, 'varied');
  const rng = new Rng(31 + i);
  const ps = samples.map((s) => {
    const maze = kernel.generateMaze(s.maze);
    const { logGaps, where } = gapPlacement(maze, readKeystrokes(maze, s.events));
    return placementPValue(where, ranks(logGaps), rng, PERMUTATIONS);
  });
  const rates = LEVELS.map((a) => wilson(ps.filter((p) => p <= a).length, ps.length));
  (report.placementTest as Record<string, unknown>)[kind] = Object.fromEntries(LEVELS.map((a, i) => [a, rates[i]]));
  row(label(kind), samples.length, rates.map(pct));
}

console.log('\nhow long the modelled people take, s (span of the events: what the challenge has to live):');
row('', 0, ['median', '90th percentile', '99th percentile / longest']);
for (const [name, d] of Object.entries(report.durations as Record<string, { median: number; p90: number; p99: number; max: number }>)) {
  row(name, SIZES.people, [d.median.toFixed(1), d.p90.toFixed(1), `${d.p99.toFixed(1)} / ${d.max.toFixed(1)}`]);
}

console.log(`\nleave one people model out (refit without it; scorer alone, varied mazes, threshold ${threshold}):`);
row('', 0, ['left-out model accepts', 'worst independent-gap script', 'worst script']);
for (const person of KEYBOARD_PEOPLE) {
  const refit = fitWithout(person);
  const left = rate(await outcomes(refit, heldOutPeople(person, 'varied')), 'scorer');
  const scripts: Record<string, Rate> = {};
  for (const f of KEYBOARD_BOT_FAMILIES) scripts[f] = rate(await outcomes(refit, heldOutBots(f, 'varied')), 'scorer');
  const worst = (fs: readonly string[]) => fs.reduce((a, b) => (scripts[b]!.rate > scripts[a]!.rate ? b : a));
  const wi = worst(INDEPENDENT_GAP_FAMILIES),
    wa = worst(KEYBOARD_BOT_FAMILIES);
  (report.leaveOnePersonOut as Record<string, unknown>)[person] = { person: left, scripts };
  row(`${person} (MODEL)`, SIZES.people, [pct(left), `${wi} ${pct(scripts[wi]!)}`, `${wa} ${pct(scripts[wa]!)}`]);
}

console.log(`\nleave one script family out (refit without it; scorer alone, varied mazes, threshold ${threshold}):`);
row('', 0, ['left-out family accepts', 'fewest people accepted']);
for (const family of KEYBOARD_BOT_FAMILIES) {
  const refit = NEVER_FITTED.includes(family) ? table : fitWithout(family);
  const left = rate(await outcomes(refit, heldOutBots(family, 'varied')), 'scorer');
  const people: Record<string, Rate> = {};
  for (const p of KEYBOARD_PEOPLE) people[p] = rate(await outcomes(refit, heldOutPeople(p, 'varied')), 'scorer');
  const fewest = KEYBOARD_PEOPLE.reduce((a, b) => (people[b]!.rate < people[a]!.rate ? b : a));
  (report.leaveOneFamilyOut as Record<string, unknown>)[family] = { family: left, people };
  row(label(family), SIZES.bots, [pct(left), `${fewest} ${pct(people[fewest]!)}`]);
}

console.log(
  `\nagainst the sighted model's assumptions: each switched off in held-out sighted people (scorer alone, varied mazes, threshold ${threshold}):`,
);
const variants: [string, HumanAssumptions][] = [
  ['as modelled', FULL_MODEL],
  ['no choice time at junctions', { ...FULL_MODEL, choiceTime: false }],
  ['no cost to change key', { ...FULL_MODEL, keyChangeCost: false }],
  ['neither', { keyChangeCost: false, choiceTime: false }],
];
row('', 0, ['the table']);
report.assumptions = {};
for (const [name, assume] of variants) {
  const people = keyboardSamples(kernel, 'sighted', SIZES.people, 9_000, 'varied', assume);
  const accepted = rate(await outcomes(table, people), 'scorer');
  (report.assumptions as Record<string, unknown>)[name] = accepted;
  row(name, SIZES.people, [pct(accepted)]);
}

mkdirSync(path.dirname(resultsFile), { recursive: true });
writeFileSync(resultsFile, `${JSON.stringify(report, null, 2)}\n`);
console.log(`\nwrote ${path.relative(repoRoot, resultsFile)}`);

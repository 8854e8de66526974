// `npm run calibrate:keyboard [-- --fit]`: the keyboard model against keyboard scripts and a
// MODEL of people (humanKeyboard.ts; there is no human keyboard data). Fits (with --fit) the
// keyboard part of the v2 table, then reports acceptance on held-out solves with Wilson 95%
// CIs, and each script family's acceptance when it was left out of fitting.
import { readFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultTable, type InputTable, type ScoringTable } from '../../../src/core/scoring/ScoringTable.js';
import { TraceFingerprints } from '../../../src/core/scoring/TraceFingerprints.js';
import { measureKeyboard } from '../../../src/core/scoring/keyboard/measureKeyboard.js';
import { readKeystrokes } from '../../../src/core/scoring/keyboard/readKeystrokes.js';
import { scoreSubmission } from '../../../src/core/scoring/scoreSubmission.js';
import { MemoryStore } from '../../../src/store/MemoryStore.js';
import { CELL } from '../mazePath.js';
import { openKernel } from '../samples.js';
import { type Rate, pct, wilson } from '../stats.js';
import { HOLD_STYLES, INDEPENDENT_GAP_FAMILIES, KEYBOARD_BOT_FAMILIES, type KeyboardBotFamily } from './keyboardBots.js';
import { type KeyboardLabelled, fitKeyboardModel } from './fitKeyboardModel.js';
import { FULL_MODEL, type HumanAssumptions } from './humanKeyboard.js';
import { type KeyboardSample, type MazeSpread, keyboardSamples } from './keyboardSamples.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../..');
const tableFile = path.resolve(repoRoot, 'src/core/scoring/tables/v2.json');
const resultsFile = path.resolve(here, '../results/keyboard.json');
const fit = process.argv.includes('--fit');
const SIZES = { fitHumans: 1500, fitBots: 300, humans: 2000, bots: 600 };

const kernel = await openKernel(new URL('../../../build/kernel.wasm', import.meta.url));
/** A duplicate memory of one trace (small: a large one takes milliseconds to set up). */
const fresh = () => new MemoryStore({ maxMarkers: 10, maxCounters: 10, maxLists: 16 });

function labelled(samples: readonly KeyboardSample[]): KeyboardLabelled[] {
  const perFamily = new Map<string, number>();
  for (const s of samples) if (s.kind !== 'human') perFamily.set(s.kind, (perFamily.get(s.kind) ?? 0) + 1);
  const humans = samples.filter((s) => s.kind === 'human').length;
  return samples.map((s) => ({
    values: measureKeyboard(readKeystrokes(kernel.generateMaze(s.maze), s.events)),
    human: s.kind === 'human',
    weight: s.kind === 'human' ? 1 / humans : 1 / (perFamily.get(s.kind)! * perFamily.size),
  }));
}

const fitSet = (seed: number, spread: MazeSpread) => [
  ...keyboardSamples(kernel, 'human', SIZES.fitHumans, seed, spread),
  ...KEYBOARD_BOT_FAMILIES.flatMap((f, i) => keyboardSamples(kernel, f, SIZES.fitBots, seed + 100 + i, spread)),
];
const calibrationSamples = [...fitSet(1_000, 'varied'), ...fitSet(2_000, 'default')];
const calibration = labelled(calibrationSamples);
const calibrationKinds = calibrationSamples.map((s) => s.kind);

let table: ScoringTable = defaultTable;
if (fit) {
  table = withKeyboard(fitKeyboardModel(calibration));
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
    out.push({ sample, replays, scorer: alone.score >= threshold, endToEnd: served !== undefined && served.score >= threshold });
  }
  return out;
}

const rate = (xs: readonly Outcome[], key: 'replays' | 'scorer' | 'endToEnd'): Rate => wilson(xs.filter((x) => x[key]).length, xs.length);

const report: Record<string, unknown> = { threshold, sizes: SIZES, heldOut: {}, leaveOneFamilyOut: {} };
const row = (name: string, n: number, cells: string[]) => console.log(`  ${name.padEnd(34)}${String(n).padStart(6)}  ${cells.map((c) => c.padEnd(26)).join('')}`);
for (const spread of ['default', 'varied'] as const) {
  console.log(`\nheld-out keyboard solves, ${spread === 'default' ? 'the default maze (8x8, difficulty 0.3)' : 'varied mazes (5-12 a side, difficulty 0.1-0.9)'}, threshold ${threshold} (Wilson 95% CI):`);
  row('', 0, ['replay passes', 'scorer accepts', 'end to end accepts']);
  const groups: [string, KeyboardSample[]][] = [
    ['human MODEL (not human data)', keyboardSamples(kernel, 'human', SIZES.humans, 9_000, spread)],
    ...KEYBOARD_BOT_FAMILIES.map((f, i): [string, KeyboardSample[]] => [f, keyboardSamples(kernel, f, SIZES.bots, 9_100 + i, spread)]),
  ];
  const results: Record<string, unknown> = {};
  for (const [name, samples] of groups) {
    const got = await outcomes(table, samples);
    const r = { replay: rate(got, 'replays'), scorer: rate(got, 'scorer'), endToEnd: rate(got, 'endToEnd') };
    results[name] = r;
    row(name, samples.length, [pct(r.replay), pct(r.scorer), pct(r.endToEnd)]);
    if (name === groups[0]![0]) continue;
    for (const h of HOLD_STYLES) {
      const some = got.filter((o) => o.sample.holdStyle === h);
      results[`${name}, keyups ${h}`] = { scorer: rate(some, 'scorer') };
      row(`  keyups ${h}`, some.length, ['', pct(rate(some, 'scorer')), '']);
    }
  }
  (report.heldOut as Record<string, unknown>)[spread] = results;
}

console.log(`\nleave one family out (refit without the family, scorer alone, varied mazes, threshold ${threshold}):`);
row('', 0, ['left-out family accepts', 'human MODEL accepts']);
const heldHumans = keyboardSamples(kernel, 'human', SIZES.humans, 9_000, 'varied');
for (const [i, family] of KEYBOARD_BOT_FAMILIES.entries()) {
  const keep = calibration.filter((_, j) => calibrationKinds[j] !== family);
  const refit = withKeyboard(fitKeyboardModel(reweighted(keep, calibrationKinds.filter((k) => k !== family))));
  const left = rate(await outcomes(refit, keyboardSamples(kernel, family, SIZES.bots, 9_100 + i, 'varied')), 'scorer');
  const people = rate(await outcomes(refit, heldHumans), 'scorer');
  (report.leaveOneFamilyOut as Record<string, unknown>)[family] = { family: left, humans: people };
  row(`${family}${INDEPENDENT_GAP_FAMILIES.includes(family) ? '' : ' (knows the maze)'}`, SIZES.bots, [pct(left), pct(people)]);
}

console.log(`\nagainst the model's assumptions: each switched off in the held-out people (scorer alone, varied mazes, threshold ${threshold}):`);
const NO_CHOICE_TIME: HumanAssumptions = { ...FULL_MODEL, choiceTime: false };
const NO_KEY_CHANGE_COST: HumanAssumptions = { ...FULL_MODEL, keyChangeCost: false };
const variants: [string, HumanAssumptions][] = [
  ['as modelled', FULL_MODEL],
  ['no choice time at junctions', NO_CHOICE_TIME],
  ['no cost to change key', NO_KEY_CHANGE_COST],
  ['neither', { keyChangeCost: false, choiceTime: false }],
];
// The same against a model fitted on a mixture of people: half as modelled, a quarter without each cost.
const mixedPeople = (seed: number, spread: MazeSpread) => [
  ...keyboardSamples(kernel, 'human', SIZES.fitHumans / 2, seed, spread),
  ...keyboardSamples(kernel, 'human', SIZES.fitHumans / 4, seed + 1, spread, NO_CHOICE_TIME),
  ...keyboardSamples(kernel, 'human', SIZES.fitHumans / 4, seed + 2, spread, NO_KEY_CHANGE_COST),
];
const mixedFit = [...mixedPeople(1_000, 'varied'), ...mixedPeople(2_000, 'default'), ...calibrationSamples.filter((x) => x.kind !== 'human')];
const mixed = withKeyboard(fitKeyboardModel(labelled(mixedFit)));
row('', 0, ['the table', 'fitted on a mixture']);
report.assumptions = {};
for (const [name, assume] of variants) {
  const people = keyboardSamples(kernel, 'human', SIZES.humans, 9_000, 'varied', assume);
  const accepted = rate(await outcomes(table, people), 'scorer');
  const byMixed = rate(await outcomes(mixed, people), 'scorer');
  (report.assumptions as Record<string, unknown>)[name] = { table: accepted, mixture: byMixed };
  row(name, SIZES.humans, [pct(accepted), pct(byMixed)]);
}
for (const [i, family] of KEYBOARD_BOT_FAMILIES.entries()) {
  const scripts = keyboardSamples(kernel, family, SIZES.bots, 9_100 + i, 'varied');
  const accepted = rate(await outcomes(table, scripts), 'scorer');
  const byMixed = rate(await outcomes(mixed, scripts), 'scorer');
  (report.assumptions as Record<string, unknown>)[family] = { table: accepted, mixture: byMixed };
  row(family, SIZES.bots, [pct(accepted), pct(byMixed)]);
}

/** Class weights again after dropping a family: humans sum to 1, each remaining family to 1 / families. */
function reweighted(data: readonly KeyboardLabelled[], kinds: readonly (KeyboardBotFamily | 'human')[]): KeyboardLabelled[] {
  const count = new Map<string, number>();
  for (const k of kinds) count.set(k, (count.get(k) ?? 0) + 1);
  const families = [...count.keys()].filter((k) => k !== 'human').length;
  return data.map((d, i) => ({ ...d, weight: d.human ? 1 / count.get('human')! : 1 / (count.get(kinds[i]!)! * families) }));
}

mkdirSync(path.dirname(resultsFile), { recursive: true });
writeFileSync(resultsFile, `${JSON.stringify(report, null, 2)}\n`);
console.log(`\nwrote ${path.relative(repoRoot, resultsFile)}`);

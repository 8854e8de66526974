// `npm run calibrate`: fits (with --fit) and measures the pointer model of table v3 on real human
// movement laid onto mazes in several independent ways and on bot families (public movers and
// the project's own), end to end (path replay, then the score, as /verify does). It reports how
// far each feature moves between layings against how far it separates the bots, leave-one-
// laying-out (fit on the other layings, measure people on the one left out), and each bot
// family left out of fitting, also with each laying left out; writes results/.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { scoringTables, type ScoringTable } from '../../src/core/scoring/ScoringTable.js';
import { BOT_FAMILIES } from '../bots/families.js';
import {
  buildDataset,
  evaluate,
  fittingMix,
  humanRates,
  layPeople,
  scoreAll,
  splitTraces,
  type FamilyRates,
  type HumanRates,
} from './evaluate.js';
import { featureValues, fitCalibration } from './fitCalibration.js';
import { leaveOneFamilyOut } from './leaveOneFamilyOut.js';
import { leaveOneLayingOut, type LaidPeople } from './leaveOneLayingOut.js';
import { layingShifts } from './layingShift.js';
import { LAYINGS } from '../people/layings/index.js';
import { MODEL_FEATURES } from '../../src/core/scoring/fit/fitTable.js';
import { v3Recipe } from './v3Recipe.js';
import { CAPTURES, openKernel, throttle, type Capture, type Sample } from '../samples.js';
import { pct, quantiles } from '../stats.js';
import { canvasMoves, recordedMoves, skipsCells, stepCells } from '../people/steps.js';
import { drawReport } from './drawReport.js';
import { peopleSummary, writePeopleSummary } from './peopleSummary.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');
const dataFile = path.resolve(repoRoot, '../shared/data/human-dev.jsonl');
const tableFile = path.resolve(repoRoot, 'src/core/scoring/tables/v3.json');
const resultsDir = path.resolve(here, '../results');
const fit = process.argv.includes('--fit');
const SEED = 2;
/** Bots per family: for fitting (seed 1) and for measuring (SEED), each family's variants taking turns. */
const CALIBRATION_BOTS = 400;
const HELD_OUT_BOTS = 800;

if (!existsSync(dataFile)) {
  console.error(`no human data at ${path.relative(repoRoot, dataFile)}: nothing to calibrate`);
  process.exit(1);
}
const kernel = await openKernel(new URL('../../build/kernel.wasm', import.meta.url));
const split = splitTraces(dataFile);
const users = (xs: { user: string }[]) => new Set(xs.map((x) => x.user)).size;
console.log(
  `human traces: calibration ${split.calibration.length} (${users(split.calibration)} users), ` +
    `held out ${split.heldOut.length} (${users(split.heldOut)} users); layings: ${LAYINGS.map((l) => l.name).join(', ')}`,
);

// The first laying's data set carries the bots and the replayed copies; every laying lays the same people.
const [firstLaying] = LAYINGS;
const cal = await buildDataset(kernel, split.calibration, 1, CALIBRATION_BOTS, 0, 0, undefined, firstLaying);
const data = await buildDataset(kernel, split.heldOut, SEED, HELD_OUT_BOTS, 20, 25, undefined, firstLaying);
const people: LaidPeople = { calibration: {}, heldOut: {} };
LAYINGS.forEach((laying, i) => {
  const calibration = i === 0 ? cal.humans : layPeople(kernel, split.calibration, 1 + 10 * i, laying);
  people.calibration[laying.name] = fittingMix(calibration);
  people.heldOut[laying.name] = i === 0 ? data.humans : layPeople(kernel, split.heldOut, SEED + 10 * i, laying);
});
const calHumans = LAYINGS.flatMap((l) => people.calibration[l.name]!);
const values = featureValues(kernel, [...calHumans, ...cal.bots]);
// The people the default table (v3) is calibrated on, for the drift report of `ariadne calibrate --traces`.
const peopleWritten = writePeopleSummary(peopleSummary('v3', calHumans, values));
console.log(`calibration people's feature quantiles written to ${path.relative(repoRoot, peopleWritten)}`);

// Which features hold whatever the laying: the people's spread between layings against the bots'.
const shifts = layingShifts(
  MODEL_FEATURES.map(([f]) => f),
  values,
  people.calibration,
  cal.bots,
);
const recipe = v3Recipe(shifts);
/** The fit's options on these people: the smoothness gate is read from whichever people a fit takes. */
const optionsFor = (humans: readonly Sample[]) => recipe.optionsFor(humans.map((h) => values.get(h)!));
const base: ScoringTable = { ...scoringTables.v3, version: 'v3' };
let table: ScoringTable = scoringTables.v3;
if (fit) {
  table = await fitCalibration(kernel, base, values, calHumans, cal.bots, optionsFor(calHumans));
  writeFileSync(tableFile, `${JSON.stringify(table, null, 2)}\n`);
  console.log(`table written, threshold ${table.threshold}`);
}
const row = (name: string, n: string, cells: string[]) =>
  console.log(`  ${name.padEnd(40)}${n.padStart(13)}  ${cells.map((c) => c.padEnd(26)).join('')}`);
console.log(
  '\nlaying shift: KS distance of the people between the two layings that differ most, against the KS distance between people and each bot family:',
);
row('feature', 'by laying', ['separation (median)', 'least / most', 'in v3']);
for (const s of shifts) {
  const ks = Object.values(s.byFamily);
  const use = recipe.dropped.includes(s.feature) ? 'left out' : recipe.bounded.includes(s.feature) ? 'bounded' : 'weighed';
  row(s.feature, s.byLaying.toFixed(2), [s.separation.toFixed(2), `${Math.min(...ks).toFixed(2)} / ${Math.max(...ks).toFixed(2)}`, use]);
}

console.log('leave-one-laying-out: refitting without each laying, then without each bot family too...');
const byLaying = await leaveOneLayingOut(kernel, base, values, people, cal.bots, data.bots, optionsFor);
console.log('leave-one-family-out (every laying fitted): refitting without each family...');
const leftOut = await leaveOneFamilyOut(kernel, base, values, { humans: calHumans, bots: cal.bots }, data.bots, optionsFor(calHumans));

const t = table.threshold;
const { scored, report } = await evaluate(kernel, table, data, t);
const shipped: Record<string, Record<Capture, HumanRates>> = {};
for (const l of LAYINGS) {
  shipped[l.name] = {} as Record<Capture, HumanRates>;
  for (const c of CAPTURES) shipped[l.name]![c] = humanRates(await scoreAll(kernel, table, people.heldOut[l.name]![c], t), t);
}

const CAPTURE_NAMES: Record<Capture, string> = { native: 'every recorded point', throttle33: '33 ms throttle' };
console.log(`\nheld-out people, table ${table.version} at threshold ${t}, seed ${SEED} (95% CI, macro over users, bootstrap):`);
row('laying, capture', 'n', ['replay passes', 'scorer accepts', 'end to end accepts']);
for (const l of LAYINGS) {
  for (const c of CAPTURES) {
    const h = shipped[l.name]![c];
    row(`${l.name}, ${CAPTURE_NAMES[c]}`, `${h.scorer.n} users`, [pct(h.replay), pct(h.scorer), pct(h.endToEnd)]);
  }
}
console.log('\nleave-one-laying-out, end to end (* the laying left out of fitting; people macro over users, bots Wilson):');
row(
  'fitted without',
  'threshold',
  LAYINGS.flatMap((l) => CAPTURES.map((c) => `${l.name}, ${c === 'native' ? 'all points' : '33 ms'}`)),
);
for (const r of byLaying) {
  row(
    r.laying,
    String(r.threshold),
    LAYINGS.flatMap((l) => CAPTURES.map((c) => `${pct(r.people[l.name]![c].endToEnd)}${l.name === r.laying ? '*' : ''}`)),
  );
}
console.log(
  '\nbot families, end to end: fitted (shipped table), left out of fitting (every laying), and left out with each laying left out too:',
);
row('family', 'n', ['fitted', 'left out', ...byLaying.map((r) => `left out, without ${r.laying}`)]);
for (const [family, r] of Object.entries(report.families) as [string, FamilyRates][]) {
  const out = leftOut[family];
  row(family, String(r.scorer.n), [
    pct(r.endToEnd),
    out ? pct(out.endToEnd) : '',
    ...byLaying.map((x) => (x.familiesLeftOut[family] ? pct(x.familiesLeftOut[family]!.endToEnd) : '')),
  ]);
}
console.log('\nby variant (timing, device pixel ratio), end to end: fitted, left out:');
for (const family of BOT_FAMILIES.filter((f) => f.variants.length > 1)) {
  for (const [variant, r] of Object.entries(report.variants[family.name] ?? {})) {
    const out = leftOut[family.name]?.variants?.[variant];
    row(`  ${family.name}, ${variant}`, String(r.scorer.n), [pct(r.endToEnd), ...(out ? [pct(out.endToEnd)] : [])]);
  }
}
console.log(`  replay copies after a source's first, scorer accepts (n=${report.replayRepeats.n}): ${pct(report.replayRepeats)}`);
for (const c of CAPTURES) {
  const h = report.humans[c];
  console.log(
    `  human (${firstLaying!.name}), ${CAPTURE_NAMES[c]}: of the traces that replay, the score accepts ${pct(h.scoreIfReplayed)} ` +
      `(${h.scoreIfReplayed.n} users); false duplicates (scorer alone): ${h.duplicates}`,
  );
}

// Why traces fail replay: per-event steps, recorded (before laying) and laid on the maze.
const steps = stepReport();
console.log('\nper-event step in 40 px cells (p50 / p90 / p99; share of traces with a step over 1 cell), and replay:');
for (const s of steps) {
  console.log(
    `  ${s.source.padEnd(24)} ${s.capture.padEnd(10)} recorded ${s.recorded.join(' / ').padEnd(16)} ${s.recordedOver1.padStart(6)}` +
      `   laid ${s.laid.join(' / ').padEnd(16)} ${s.laidOver1.padStart(6)}   replay passes ${s.replay}` +
      `, failures with a skipped cell ${s.failuresSkippingCells}`,
  );
}

mkdirSync(resultsDir, { recursive: true });
writeFileSync(path.join(resultsDir, 'scores.svg'), drawReport(scored, t));
writeFileSync(
  path.join(resultsDir, 'summary.json'),
  `${JSON.stringify({ table: table.version, threshold: t, seed: SEED, layings: LAYINGS.map(({ name, description }) => ({ name, description })), shifts, dropped: recipe.dropped, bounded: recipe.bounded, gates: table.types.mouse.gates, people: shipped, leaveOneLayingOut: byLaying, ...report, leftOut, steps }, null, 2)}\n`,
);
console.log(`\nwrote ${path.relative(repoRoot, resultsDir)}/scores.svg and summary.json`);

function stepReport() {
  const share = (xs: number[][]) => `${((100 * xs.filter((s) => s.some((d) => d > 1)).length) / xs.length).toFixed(1)}%`;
  const q = (xs: number[][]) => quantiles(xs.flat(), [0.5, 0.9, 0.99]).map((v) => Number(v.toFixed(2)));
  return [...new Set(split.heldOut.map((x) => x.source))].flatMap((source) =>
    CAPTURES.map((capture) => {
      const idx = split.heldOut.flatMap((x, i) => (x.source === source ? [i] : []));
      const recorded = idx.map((i) => {
        const moves = recordedMoves(split.heldOut[i]!);
        return stepCells(capture === 'native' ? moves : throttle(moves, 33));
      });
      const laid = idx.map((i) => stepCells(canvasMoves(data.humans[capture][i]!)));
      const passes = scored[capture].filter((x) => x.sample.kind === 'human' && x.sample.source === source);
      const failures = passes.filter((x) => !x.replays);
      return {
        source,
        capture,
        traces: idx.length,
        recorded: q(recorded),
        recordedOver1: share(recorded),
        laid: q(laid),
        laidOver1: share(laid),
        replay: pct(humanRates(passes, t).sources[source]!.replay),
        failuresSkippingCells: `${failures.filter((x) => skipsCells(kernel, x.sample)).length} of ${failures.length}`,
      };
    }),
  );
}

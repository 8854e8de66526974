// `npm run calibrate`: fits (with --fit) and measures the scoring table on real human movement
// laid onto mazes and on scripted movers, by the scorer alone and end to end (path replay, then
// the score, as /verify does); writes results/ (summary and picture).
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultTable, type ScoringTable } from '../../src/core/scoring/ScoringTable.js';
import { packEvents } from '../../src/kernel/index.js';
import { buildDataset, evaluate, humanRates, scoreAll, splitTraces, type FamilyRates, type HumanRates } from './evaluate.js';
import { fitTable, type Labelled } from './fitTable.js';
import { CELL } from './mazePath.js';
import { CAPTURES, openKernel, throttle, type Capture, type Sample } from './samples.js';
import { pct, quantiles } from './stats.js';
import { canvasMoves, recordedMoves, skipsCells, stepCells } from './steps.js';
import { drawReport } from './drawReport.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');
const dataFile = path.resolve(repoRoot, '../shared/data/human-dev.jsonl');
const tableFile = path.resolve(repoRoot, 'src/core/scoring/tables/v1.json');
const resultsDir = path.resolve(here, 'results');
const fit = process.argv.includes('--fit');
const SEED = 2;

if (!existsSync(dataFile)) {
  console.error(`no human data at ${path.relative(repoRoot, dataFile)}: nothing to calibrate`);
  process.exit(1);
}
const kernel = await openKernel(new URL('../../build/kernel.wasm', import.meta.url));
const split = splitTraces(dataFile);
const users = (xs: { user: string }[]) => new Set(xs.map((x) => x.user)).size;
console.log(
  `human traces: calibration ${split.calibration.length} (${users(split.calibration)} users), ` +
    `held out ${split.heldOut.length} (${users(split.heldOut)} users)`,
);

let table: ScoringTable = defaultTable;
if (fit) {
  const cal = buildDataset(kernel, split.calibration, 1, 600, 0, 0);
  // A third of the traces as the deployed widget's 33 ms throttle captures them.
  const humans = cal.humans.native.map((h, i) => (i % 3 === 2 ? cal.humans.throttle33[i]! : h));
  table = await fitCalibration(humans, cal.bots);
  writeFileSync(tableFile, `${JSON.stringify(table, null, 2)}\n`);
  console.log(`table written, threshold ${table.threshold}`);
}

const t = table.threshold;
const data = buildDataset(kernel, split.heldOut, SEED, 600, 20, 25);
const { scored, report } = await evaluate(kernel, table, data, t);

const CAPTURE_NAMES: Record<Capture, string> = { native: 'every recorded point', throttle33: '33 ms throttle' };
const row = (name: string, n: string, cells: string[]) => console.log(`  ${name.padEnd(30)}${n.padStart(13)}  ${cells.map((c) => c.padEnd(26)).join('')}`);
console.log(`\nheld-out acceptance at threshold ${t}, seed ${SEED} (95% CI; humans macro over users, bootstrap; bots Wilson):`);
row('', 'n', ['replay passes', 'scorer accepts', 'end to end accepts']);
for (const c of CAPTURES) {
  const h: HumanRates = report.humans[c];
  row(`human, ${CAPTURE_NAMES[c]}`, `${h.scorer.n} users`, [pct(h.replay), pct(h.scorer), pct(h.endToEnd)]);
}
for (const [family, r] of Object.entries(report.families) as [string, FamilyRates][]) {
  row(family, String(r.scorer.n), [pct(r.replay), pct(r.scorer), pct(r.endToEnd)]);
}
console.log(`  replay copies after a source's first, scorer accepts (n=${report.replayRepeats.n}): ${pct(report.replayRepeats)}`);
for (const c of CAPTURES) {
  const h = report.humans[c];
  console.log(
    `  human, ${CAPTURE_NAMES[c]}: of the traces that replay, the score accepts ${pct(h.scoreIfReplayed)} ` +
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
writeFileSync(path.join(resultsDir, 'summary.json'), `${JSON.stringify({ threshold: t, seed: SEED, ...report, steps }, null, 2)}\n`);
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

/** Fits the pointer model, then the threshold that keeps 99% of calibration humans (macro). */
async function fitCalibration(humans: Sample[], bots: Sample[]): Promise<ScoringTable> {
  const perUser = new Map<string, number>();
  for (const h of humans) perUser.set(h.user, (perUser.get(h.user) ?? 0) + 1);
  const values = (s: Sample) => kernel.features(s.maze, packEvents(s.events), CELL).values;
  const data: Labelled[] = [
    ...humans.map((h) => ({ values: values(h), human: true, weight: 1 / (perUser.get(h.user)! * perUser.size) })),
    ...bots.map((b) => ({ values: values(b), human: false, weight: 1 / bots.length })),
  ];
  const mouse = fitTable(data);
  const draft: ScoringTable = { ...defaultTable, types: { ...defaultTable.types, mouse, touch: mouse, pen: mouse } };
  const calScored = await scoreAll(kernel, draft, humans, 1);
  let threshold = 0.5;
  for (let x = 0.5; x >= 0.01; x -= 0.01) {
    threshold = Number(x.toFixed(2));
    if (humanRates(calScored, threshold).scorer.rate >= 0.99) break;
  }
  return { ...draft, threshold };
}

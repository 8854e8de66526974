// `npm run calibrate:layings`: held-out people laid by each held-out laying (never fitted on),
// measured end to end with the shipped table (v3) with every point and at the
// deployed widget's 33 ms throttle: acceptance per user and per study, and why /verify refused
// the traces it refused, person by person (path replay, a scoring gate, or the score). `-- --all` measures the
// fitted layings too, on the same people, for comparison; `-- --data FILE` reads the human data
// from FILE instead of ../shared/data/human-dev.jsonl. `-- --shifts` adds, per laying, how far the
// throttle moves each weighed feature of the same movements (captureShift.ts), and for each trace
// the score refused at the throttle, its most negative terms there and with every point.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultTable } from '../../src/core/scoring/ScoringTable.js';
import { termContributions } from '../../src/core/scoring/scoreFeatures.js';
import { HELD_OUT_LAYINGS, LAYINGS } from '../people/layings/index.js';
import { worstDetour } from '../people/steps.js';
import { CAPTURES, openKernel } from '../samples.js';
import { pct, wilson } from '../stats.js';
import { captureShifts } from './captureShift.js';
import { featureValues } from './fitCalibration.js';
import { acceptedByScorer, acceptedEndToEnd, humanRates, layPeople, scoreAll, splitTraces, type Scored } from './evaluate.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const dataArg = process.argv.indexOf('--data');
const dataFile = dataArg > 0 ? path.resolve(process.argv[dataArg + 1]!) : path.resolve(here, '../../../shared/data/human-dev.jsonl');
/**
 * The held-out people's seed in `npm run calibrate`, each laying adding 10 in turn (the held-out
 * layings after the fitted ones), so the fitted layings' figures here are that run's.
 */
const SEED = 2;

const kernel = await openKernel(new URL('../../build/kernel.wasm', import.meta.url));
const { heldOut } = splitTraces(dataFile);
const table = defaultTable;
const t = table.threshold;
const every = [...LAYINGS, ...HELD_OUT_LAYINGS];
const layings = process.argv.includes('--all') ? every : HELD_OUT_LAYINGS;
console.log(
  `table ${table.version}, threshold ${t}; held-out people: ${heldOut.length} traces, ${new Set(heldOut.map((x) => x.user)).size} users`,
);

/**
 * Why /verify refused a trace: replay before scoring (with the most steps a jump's route exceeded
 * the cells' distance by: the detour fills up to 4), a gate alone, or the score (its first reason).
 */
const refusal = (s: Scored) =>
  !s.replays
    ? `invalid_path (replay; a jump ${worstDetour(kernel, s.sample)} steps longer round than apart)`
    : s.gate !== undefined
      ? `gate ${s.gate}`
      : `score (${s.reasons[0] ?? 'none'})`;

const CAPTURE_NAMES = { native: 'every point', throttle33: '33 ms throttle' } as const;
const shifts = process.argv.includes('--shifts');
const model = table.types.mouse;
for (const laying of layings) {
  const people = layPeople(kernel, heldOut, SEED + 10 * every.indexOf(laying), laying);
  console.log(`\n${laying.name}${HELD_OUT_LAYINGS.includes(laying) ? ' (held out: never fitted)' : ' (fitted)'}: ${laying.description}`);
  const values = shifts ? featureValues(kernel, [...people.native, ...people.throttle33]) : undefined;
  if (values) {
    console.log(
      "  what the 33 ms throttle moves (throttled - every point, in the table's scaled units): median over traces, over users; KS",
    );
    const rows = (c: 'native' | 'throttle33') => people[c].map((s) => values.get(s)!);
    for (const x of captureShifts(
      model,
      rows('native'),
      rows('throttle33'),
      people.native.map((s) => s.user),
    )) {
      console.log(
        `    ${x.feature.padEnd(24)} ${x.median.toFixed(2).padStart(6)} ${x.byUser.toFixed(2).padStart(6)}   KS ${x.ks.toFixed(2)}`,
      );
    }
  }
  for (const c of CAPTURES) {
    const scored = await scoreAll(kernel, table, people[c], t);
    const rates = humanRates(scored, t);
    const accepted = scored.filter((s) => acceptedEndToEnd(s, t)).length;
    console.log(
      `  ${CAPTURE_NAMES[c]}: end to end ${pct(rates.endToEnd)} macro over ${rates.endToEnd.n} users; ` +
        `traces ${accepted}/${scored.length} ${pct(wilson(accepted, scored.length))}; replay ${pct(rates.replay)}, score if replayed ${pct(rates.scoreIfReplayed)}`,
    );
    for (const [source, r] of Object.entries(rates.sources)) {
      console.log(
        `    ${source.padEnd(24)} traces ${Math.round(r.endToEnd.rate * r.endToEnd.n)}/${r.endToEnd.n} ${pct(r.endToEnd)}, replay ${pct(r.replay)}`,
      );
    }
    const unreplayed = scored.filter((s) => !s.replays);
    console.log(
      `    of the ${unreplayed.length} traces replay refused, the scorer alone accepts ${unreplayed.filter((s) => acceptedByScorer(s, t)).length}`,
    );
    const why = new Map<string, number>();
    for (const s of scored) {
      const key = `${refusal(s)}, ${s.sample.user}`;
      if (!acceptedEndToEnd(s, t)) why.set(key, (why.get(key) ?? 0) + 1);
    }
    for (const [reason, n] of [...why].sort((a, b) => b[1] - a[1])) console.log(`    refused: ${String(n).padStart(4)}  ${reason}`);
    if (!values || c !== 'throttle33') continue;
    console.log(
      "    the score's refusals at the throttle, their four most negative terms (| folded): part of the logit there (with every point)",
    );
    scored.forEach((s, i) => {
      if (!s.replays || acceptedEndToEnd(s, t)) return;
      const there = termContributions(model, { kernel: values.get(s.sample)! });
      const native = termContributions(model, { kernel: values.get(people.native[i]!)! });
      const worst = model.terms
        .map((term, j) => ({ term, j }))
        .sort((a, b) => there[a.j]! - there[b.j]!)
        .slice(0, 4);
      console.log(
        `      ${s.sample.user} #${i} ${s.gate ? `gate ${s.gate}; ` : ''}${worst.map(({ term, j }) => `${term.feature}${term.fold ? '|' : ''} ${there[j]!.toFixed(2)} (${native[j]!.toFixed(2)})`).join(', ')}`,
      );
    });
  }
}

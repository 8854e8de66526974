// `npm run calibrate:bots`: writes the shipped bot families' feature rows beside table v3
// (src/core/scoring/tables/v3.bots.json), which `ariadne calibrate --traces FILE --fit OUT` fits a
// site table on with the site's traffic. The generators are seeded, so the file is the same on
// every run; it takes seconds, without the human data the full calibration needs.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BotRows } from '../../src/core/scoring/fit/BotRows.js';
import { siteRecipe } from '../../src/core/scoring/fit/siteRecipe.js';
import { scoringTables } from '../../src/core/scoring/ScoringTable.js';
import { FEATURE_NAMES } from '../../src/kernel/features.js';
import { BOT_FAMILIES } from './families.js';
import { featureValues } from '../pointer/fitCalibration.js';
import { Rng } from '../random.js';
import { botSamples, openKernel } from '../samples.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const outFile = path.join(repoRoot, 'src/core/scoring/tables/v3.bots.json');
/** Not the calibration's seeds (1 to fit, 2 to measure), so these bots are new to table v3. */
const SEED = 5;
/** Bots per family, its variants taking turns: about 25 kB of rows per family. */
const PER_FAMILY = 150;

const kernel = await openKernel(new URL('../../build/kernel.wasm', import.meta.url));
const features = siteRecipe(scoringTables.v3.types.mouse).features.map(([f]) => f);
const slots = features.map((f) => FEATURE_NAMES.indexOf(f));
const bots = await botSamples(kernel, new Rng(SEED), PER_FAMILY);
const values = featureValues(kernel, bots);
const rows: BotRows = { table: 'v3', seed: SEED, features, families: {} };
let unusable = 0;
for (const bot of bots) {
  const row = slots.map((slot) => values.get(bot)![slot]!);
  // A bot without a value for a weighed feature cannot enter a fit; none is expected.
  if (!row.every(Number.isFinite)) {
    unusable++;
    continue;
  }
  (rows.families[bot.kind] ??= []).push(row.map((v) => Number(v.toPrecision(5))));
}
writeFileSync(outFile, `${JSON.stringify(rows)}\n`);
const counts = BOT_FAMILIES.map((f) => `${f.name} ${rows.families[f.name]?.length ?? 0}`).join(', ');
console.log(`${path.relative(repoRoot, outFile)}: ${features.length} features; ${counts}; ${unusable} left out without a value`);

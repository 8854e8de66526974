import { splitTraces } from './evaluate.js';
import { featureValues } from './fitCalibration.js';
import { MODEL_FEATURES } from './fitTable.js';
import { openKernel, humanSamples, botSamples, type Sample } from './samples.js';
import { LAYINGS } from './layings/index.js';
import { Rng } from './random.js';
import { FEATURE_NAMES } from '../../src/kernel/features.js';
import { quantiles } from './stats.js';
const kernel = await openKernel(new URL('../../build/kernel.wasm', import.meta.url));
const split = splitTraces('../shared/data/human-dev.jsonl');
const groups: Record<string, Sample[]> = {};
for (const l of LAYINGS) { const rng = new Rng(11); groups[l.name] = split.calibration.map((t) => humanSamples(kernel, rng, t, l).native); }
const bots = await botSamples(kernel, new Rng(1), 100);
for (const f of new Set(bots.map((b) => b.kind))) groups[f] = bots.filter((b) => b.kind === f);
const values = featureValues(kernel, Object.values(groups).flat());
for (const [f] of MODEL_FEATURES) {
  const k = FEATURE_NAMES.indexOf(f);
  console.log(f);
  for (const [g, xs] of Object.entries(groups)) console.log('   ', g.padEnd(14), quantiles(xs.map((s) => values.get(s)![k]!), [0.02, 0.25, 0.5, 0.75, 0.98]).map((v) => v.toPrecision(3).padStart(8)).join(' '));
}

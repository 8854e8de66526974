import { scoringTables, type ScoringTable } from '../../src/core/scoring/ScoringTable.js';
import { buildDataset, splitTraces } from './evaluate.js';
import { featureValues, fitCalibration } from './fitCalibration.js';
import { MODEL_FEATURES } from './fitTable.js';
import { openKernel, humanSamples, botSamples, type Sample } from './samples.js';
import { LAYINGS } from './layings/index.js';
import { Rng } from './random.js';
import { replaysWithDetour } from './detourReplay.js';
import { pct, macroRate, wilson } from './stats.js';
import { termContributions, sigmoid } from '../../src/core/scoring/scoreFeatures.js';
import type { FeatureName } from '../../src/kernel/features.js';

const kernel = await openKernel(new URL('../../build/kernel.wasm', import.meta.url));
const split = splitTraces('../shared/data/human-dev.jsonl');
const NCAL = Number(process.env.NCAL ?? 200), NHELD = Number(process.env.NHELD ?? 300);
const calPeople: Record<string, Sample[]> = {};
const held: Record<string, { native: Sample; throttle33: Sample }[]> = {};
for (const l of LAYINGS) {
  const rng = new Rng(11);
  const pairs = split.calibration.map((t) => humanSamples(kernel, rng, t, l));
  calPeople[l.name] = pairs.map((p, i) => (i % 3 === 2 ? p.throttle33 : p.native));
  const rng2 = new Rng(12);
  held[l.name] = split.heldOut.map((t) => humanSamples(kernel, rng2, t, l));
}
const calBots = await botSamples(kernel, new Rng(1), NCAL);
const heldBots = await botSamples(kernel, new Rng(2), NHELD);
const everything = [...Object.values(calPeople).flat(), ...Object.values(held).flatMap((h) => h.flatMap((p) => [p.native, p.throttle33])), ...calBots, ...heldBots];
const values = featureValues(kernel, everything);
const replays = new Map<Sample, boolean>(everything.map((s) => [s, replaysWithDetour(kernel, kernel.generateMaze(s.maze), s.events, 4)]));
console.error('data ready');

const GEOMETRY = new Set<FeatureName>(['efficiency_ratio', 'curvature', 'turn_mean', 'angular_entropy', 'corridor_deviation', 'corridor_deviation_sd', 'on_rail_fraction', 'jitter_ratio']);
const DROP = new Set<FeatureName>((process.env.DROP ?? 'on_rail_fraction,corridor_deviation').split(',').filter(Boolean) as FeatureName[]);
const features = MODEL_FEATURES.filter(([f]) => !DROP.has(f));
const bounded = new Set<FeatureName>(process.env.NOBOUND ? [] : [...GEOMETRY].filter((f) => !DROP.has(f)));
const floor = Number(process.env.FLOOR ?? 2);
const opts = { features, bounded, boundedFloor: floor, onlyLowers: !process.env.SIGNED };
const base: ScoringTable = { ...scoringTables.v2, version: 'x' };
const score = (t: ScoringTable, s: Sample) => { const m = t.types.mouse; return sigmoid([...termContributions(m, { kernel: values.get(s)! })].reduce((a, b) => a + b, m.bias)); };
const families = [...new Set(calBots.map((b) => b.kind))];
for (const out of LAYINGS.map((l) => l.name).filter((n) => !process.env.OUT || n === process.env.OUT)) {
  const fitPeople = LAYINGS.filter((l) => l.name !== out).flatMap((l) => calPeople[l.name]!);
  const t = await fitCalibration(kernel, base, values, fitPeople, calBots, opts, !!process.env.HUMANISE);
  const th = t.threshold;
  const line: string[] = [`out=${out} th=${th} bias=${t.types.mouse.bias}`];
  for (const l of LAYINGS) {
    for (const cap of ['native', 'throttle33'] as const) {
      const pu = new Map<string, boolean[]>();
      for (const p of held[l.name]!) { const s = p[cap]; pu.set(s.user, [...(pu.get(s.user) ?? []), replays.get(s)! && score(t, s) >= th]); }
      line.push(`${l.name}${l.name === out ? '*' : ''}/${cap === 'native' ? 'all' : '33'}: ${pct(macroRate(pu))}`);
    }
  }
  console.log(line.join('  '));
  const fam: string[] = [];
  for (const f of families) {
    const t2 = process.env.NOLOFO ? t : await fitCalibration(kernel, base, values, fitPeople, calBots.filter((b) => b.kind !== f), opts, !!process.env.HUMANISE);
    const xs = heldBots.filter((b) => b.kind === f);
    const k = xs.filter((s) => replays.get(s)! && score(t2, s) >= t2.threshold).length;
    fam.push(`${f}:${(100 * k / xs.length).toFixed(1)}`);
  }
  console.log('   bots left out:', fam.join(' '));
}

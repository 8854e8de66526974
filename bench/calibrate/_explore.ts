import path from 'node:path';
import { scoringTables } from '../../src/core/scoring/ScoringTable.js';
import { buildDataset, splitTraces, scoreAll, humanRates, every } from './evaluate.js';
import { featureValues } from './fitCalibration.js';
import { MODEL_FEATURES } from './fitTable.js';
import { openKernel, humanSamples, throttle } from './samples.js';
import { LAYINGS } from './layings/index.js';
import { Rng } from './random.js';
import { layingShifts } from './layingShift.js';
import { replaysWithDetour } from './detourReplay.js';
import { pct, macroRate } from './stats.js';
import { packEvents } from '../../src/kernel/index.js';
import { scoreSubmission } from '../../src/core/scoring/scoreSubmission.js';
import { TraceFingerprints } from '../../src/core/scoring/TraceFingerprints.js';
import { MemoryStore } from '../../src/store/MemoryStore.js';
import { CELL } from './mazePath.js';

const kernel = await openKernel(new URL('file:///work/wt/scoring/build/kernel.wasm'));
const split = splitTraces('/work/shared/data/human-dev.jsonl');
const cal = await buildDataset(kernel, split.calibration, 1, 150, 0, 0);
const people: Record<string, any[]> = {};
const held: Record<string, any[]> = {};
for (const l of LAYINGS) {
  const rng = new Rng(11);
  people[l.name] = split.calibration.map((t) => humanSamples(kernel, rng, t, l).native);
  const rng2 = new Rng(12);
  held[l.name] = split.heldOut.map((t) => humanSamples(kernel, rng2, t, l));
}
const all = [...Object.values(people).flat(), ...cal.bots];
const values = featureValues(kernel, all);
const shifts = layingShifts(MODEL_FEATURES.slice(-2).map(([f]) => f), values, people, cal.bots);
for (const s of shifts.sort((a, b) => b.byLaying - b.separation - (a.byLaying - a.separation))) {
  console.log(s.feature.padEnd(24), s.byLaying.toFixed(2), s.layings.join('/').padEnd(20), 'sep', s.separation.toFixed(2), Object.entries(s.byFamily).map(([k, v]) => `${k}:${v.toFixed(2)}`).join(' '));
}
const table = scoringTables[(process.env.T ?? 'v2') as 'v2'];
for (const l of LAYINGS) {
  for (const cap of ['native', 'throttle33'] as const) {
    const fp = new TraceFingerprints(new MemoryStore({ maxMarkers: 1, maxCounters: 1, maxLists: 1_000_000 }));
    const perUser = new Map<string, boolean[]>();
    const perUserR = new Map<string, boolean[]>();
    const reasons = new Map<string, number>();
    for (const h of held[l.name]!) {
      const s = h[cap];
      const r = await scoreSubmission({ kernel, table, fingerprints: fp }, { maze: s.maze, cellSize: CELL, events: packEvents(s.events), rawEvents: s.events, threshold: table.threshold });
      const rep = replaysWithDetour(kernel, kernel.generateMaze(s.maze), s.events, 4);
      perUser.set(s.user, [...(perUser.get(s.user) ?? []), rep && r.score >= table.threshold]);
      perUserR.set(s.user, [...(perUserR.get(s.user) ?? []), rep]);
      if (r.score < table.threshold) for (const c of r.reasons) reasons.set(c, (reasons.get(c) ?? 0) + 1);
    }
    console.log(l.name, cap, 'replay', pct(macroRate(perUserR)), 'e2e', pct(macroRate(perUser)), [...reasons].sort((a,b)=>b[1]-a[1]).slice(0,5).map(([k,v])=>`${k}:${v}`).join(' '));
  }
}

/**
 * A traces download as a site in shadow mode would sample it: held-out people (users never used
 * to fit the scoring table) laid on mazes as the deployed widget captures them (33 ms throttle),
 * scored by the real scorer (table v3) and written by the real sampler (traceRecord); every solve
 * is `ok` in shadow mode, whatever it scored.
 */
import { every, splitTraces } from '../../calibration/pointer/evaluate.js';
import { CELL } from '../../calibration/people/mazePath.js';
import { Rng } from '../../calibration/random.js';
import { humanSamples } from '../../calibration/samples.js';
import { scoreSubmission } from '../../src/core/scoring/scoreSubmission.js';
import { defaultTable } from '../../src/core/scoring/ScoringTable.js';
import { TraceFingerprints } from '../../src/core/scoring/TraceFingerprints.js';
import { type TraceRecord, traceRecord } from '../../src/core/traffic/traceRecord.js';
import { packEvents } from '../../src/kernel/index.js';
import { MemoryStore } from '../../src/store/MemoryStore.js';
import { kernelWithFeatures } from '../core/scoring/kernelWithFeatures.js';
import { humanDataFile } from './humanTraces.js';

/** About `count` records (every k-th held-out trace, so each user stays in), in a fixed order. */
export async function sampledTraffic(count: number, seed: number): Promise<TraceRecord[]> {
  const kernel = await kernelWithFeatures();
  const heldOut = splitTraces(humanDataFile).heldOut;
  const traces = every(heldOut, Math.max(1, Math.floor(heldOut.length / count))).slice(0, count);
  const rng = new Rng(seed);
  const fingerprints = new TraceFingerprints(new MemoryStore({ maxMarkers: 1, maxCounters: 1, maxLists: 1_000_000 }));
  const records: TraceRecord[] = [];
  for (const trace of traces) {
    const { maze, events } = humanSamples(kernel, rng, trace).throttle33;
    const r = await scoreSubmission(
      { kernel, table: defaultTable, fingerprints },
      { maze, cellSize: CELL, events: packEvents(events), rawEvents: events },
    );
    const seen = {
      inputType: r.inputType,
      maze,
      cellSize: CELL,
      scored: { mode: 'shadow' as const, score: r.score, reasons: r.reasons, features: r.features },
    };
    records.push(traceRecord({ now: Date.UTC(2030, 0, 1), site: 'shop', outcome: 'ok', seen, events }));
  }
  return records;
}

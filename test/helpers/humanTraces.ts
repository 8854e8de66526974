/**
 * Held-out human traces (users never used to fit the scoring table) laid on the mazes of live
 * challenges, for tests that need a trace the scorer accepts.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { splitTraces } from '../../calibration/pointer/evaluate.js';
import type { HumanTrace } from '../../calibration/people/humans.js';
import { MAX_STRETCH, layOnMaze } from '../../calibration/people/layOnMaze.js';
import { laidLength } from '../../calibration/people/mazePath.js';
import type { Challenge } from '../../src/core/challenge/issueChallenge.js';
import { defaultTable } from '../../src/core/scoring/ScoringTable.js';
import { TraceFingerprints } from '../../src/core/scoring/TraceFingerprints.js';
import { scoreSubmission } from '../../src/core/scoring/scoreSubmission.js';
import { MemoryStore } from '../../src/store/MemoryStore.js';
import type { MazeParams, RawEvent } from '../../src/kernel/types.js';
import { testKernel } from './server.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const humanDataFile = path.resolve(repoRoot, '../shared/data/human-dev.jsonl');
export const hasHumans = existsSync(humanDataFile);

let heldOut: HumanTrace[] | undefined;
function heldOutTraces(): HumanTrace[] {
  heldOut ??= hasHumans ? splitTraces(humanDataFile).heldOut : [];
  return heldOut;
}

export const mazeOf = (ch: Challenge): MazeParams => ({
  seed: ch.maze_seed,
  width: ch.maze_width,
  height: ch.maze_height,
  difficulty: ch.maze_difficulty,
});

/** True when `events` are a valid solve of `ch` (what /verify checks before scoring). */
export async function replays(ch: Challenge, events: RawEvent[]): Promise<boolean> {
  const kernel = await testKernel();
  return kernel.replay(mazeOf(ch), kernel.packEvents(events), ch.cell_size, { kind: 'verify' }).valid;
}

/**
 * True when the default table scores `events` on `ch` at least its threshold, with no duplicate
 * memory: about 1 held-out trace in 150 is not (calibrate measures that rate; tests that need an
 * accepted person must not depend on which maze a run drew).
 */
async function scorerAccepts(ch: Challenge, events: RawEvent[]): Promise<boolean> {
  const kernel = await testKernel();
  const { score } = await scoreSubmission(
    { kernel, fingerprints: new TraceFingerprints(new MemoryStore({ maxMarkers: 10, maxCounters: 10 })) },
    { maze: mazeOf(ch), cellSize: ch.cell_size, events: kernel.packEvents(events), rawEvents: events },
  );
  return score >= defaultTable.threshold;
}

/**
 * The first held-out human trace as long as the laid solution of every challenge in `chs`
 * (within MAX_STRETCH, so the person's speed is kept) that, laid along each maze by the
 * calibration's mapping, is a valid solve (fast strokes that jump over a cell between two
 * events do not replay) which the scorer accepts; its events on each maze, or undefined when no
 * trace fits them all.
 */
export async function humanTraceFor(chs: Challenge[]): Promise<RawEvent[][] | undefined> {
  const kernel = await testKernel();
  const mazes = chs.map((ch) => kernel.generateMaze(mazeOf(ch)));
  const lengths = mazes.map(laidLength);
  for (const trace of heldOutTraces()) {
    if (!lengths.every((l) => Math.abs(l / trace.pathPx - 1) <= MAX_STRETCH)) continue;
    const events = mazes.map((m) => layOnMaze(trace, m));
    const valid = await Promise.all(events.map(async (e, i) => (await replays(chs[i]!, e)) && (await scorerAccepts(chs[i]!, e))));
    if (valid.every(Boolean)) return events;
  }
  return undefined;
}

/**
 * Fresh challenges from `next` until `count` of them share a held-out human trace that fits
 * and replays on each (a few mazes have no trace of their length); at most `tries` challenges.
 */
export async function challengesWithHumanTrace(next: () => Promise<Challenge>, count: 1 | 2, tries: number) {
  const seen: Challenge[] = [];
  for (let i = 0; i < tries; i++) {
    const ch = await next();
    for (const other of count === 1 ? [undefined] : seen) {
      const chs = other === undefined ? [ch] : [other, ch];
      const events = await humanTraceFor(chs);
      if (events !== undefined) return { chs, events };
    }
    seen.push(ch);
  }
  throw new Error(`no held-out human trace fits ${count} of ${tries} mazes`);
}

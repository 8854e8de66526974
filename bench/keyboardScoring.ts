// Keyboard scoring cost: the keyboard features (keystrokes over the maze, in TypeScript) alone
// and within a whole keyboard score, in one run (compare as ratios).
import { Bench, type Task } from 'tinybench';
import { TraceFingerprints } from '../src/core/scoring/TraceFingerprints.js';
import { measureKeyboard } from '../src/core/scoring/keyboard/measureKeyboard.js';
import { readKeystrokes } from '../src/core/scoring/keyboard/readKeystrokes.js';
import { scoreSubmission } from '../src/core/scoring/scoreSubmission.js';
import { MemoryStore } from '../src/store/MemoryStore.js';
import type { MazeParams, RawEvent } from '../src/kernel/index.js';
import { keyboardEvents } from '../calibration/keyboard/keyboardEvents.js';
import { humanKeyboard } from '../calibration/keyboard/humanKeyboard.js';
import { Rng } from '../calibration/random.js';
import { openKernel } from '../calibration/samples.js';
import type { Row, Section } from './section.js';

const MAZE: MazeParams = { seed: 20_261_125, width: 8, height: 8, difficulty: 0.3 };

function row(task: Task, events: number): Row {
  const r = task.result;
  if (r.state !== 'completed') throw new Error(`${task.name}: ${r.state}`);
  return {
    name: task.name,
    events,
    median_us: r.latency.p50 * 1000,
    mean_us: r.latency.mean * 1000,
    p99_us: r.latency.p99 * 1000,
    samples: r.latency.samplesCount,
  };
}

export async function runKeyboardScoringBench(): Promise<Section> {
  const kernel = await openKernel(new URL('../build/kernel.wasm', import.meta.url));
  const maze = kernel.generateMaze(MAZE);
  const person = keyboardEvents(maze, humanKeyboard(new Rng(1), maze), 'ours', { lead: 900, hold: 95 });
  // A long keyboard trace: the modelled solve repeated back and forth to 2,000 events.
  const long: RawEvent[] = Array.from({ length: 2000 }, (_, i) => ({ ...person[i % person.length]!, t: i * 40 }));
  // A fresh duplicate memory each time, and a threshold nothing reaches: nothing is remembered.
  const fingerprints = () => new TraceFingerprints(new MemoryStore({ maxMarkers: 10, maxCounters: 10, maxLists: 16 }));
  const score = (events: RawEvent[]) =>
    scoreSubmission(
      { kernel, fingerprints: fingerprints() },
      { maze: MAZE, cellSize: 40, events: kernel.packEvents(events), rawEvents: events, threshold: 1.01 },
    );
  const bench = new Bench({ name: 'keyboard scoring', time: 400, warmupTime: 100 });
  bench.add(`keyboard features, modelled solve`, () => void measureKeyboard(maze, readKeystrokes(maze, person)));
  bench.add('keyboard features, 2,000 keydowns and keyups', () => void measureKeyboard(maze, readKeystrokes(maze, long)));
  bench.add('score, modelled keyboard solve', async () => void (await score(person)));
  bench.add('score, 2,000 keydowns and keyups', async () => void (await score(long)));
  await bench.run();
  const counts = [person.length, long.length, person.length, long.length];
  return {
    name: 'keyboard scoring',
    rows: bench.tasks.map((t, i) => row(t, counts[i]!)),
    notes: ['Each score includes the kernel features, the duplicate lookup (fresh memory) and the table.'],
  };
}

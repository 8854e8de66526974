// Kernel benchmarks: maze generation, replay, PoW check, and the PoW solve hash rate of the
// wasm loop against node:crypto and WebCrypto loops over the same inputs, in one run.
import { createHash, webcrypto } from 'node:crypto';
import { statSync } from 'node:fs';
import { Bench, type Task } from 'tinybench';
import { loadKernel, type Cell, type Kernel, type MazeParams, type RawEvent } from '../src/kernel/index.js';
import { openKernel } from '../calibration/samples.js';
import type { Row, Section } from './section.js';

const CELL = 40;
/** Nonces hashed per iteration by each PoW solve loop. */
const POW_BATCH = 1024;
/** A hex challenge like the issued ones (32 random bytes as hex). */
const CHALLENGE = '6f1d0c2a9be84413a7d58e0f3c2b1a99e4d7c6b5a4938271605f4e3d2c1b0a98';

/** A plausible pointer trace of exactly `count` events along the solution, with jitter and noise. */
function trace(k: Kernel, maze: MazeParams, solution: readonly Cell[], count: number): RawEvent[] {
  const surfaceW = maze.width * CELL + 40;
  const surfaceH = maze.height * CELL + 64;
  let seed = 0x5eed;
  const jitter = () => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return (seed / 2 ** 32 - 0.5) * CELL * 0.6;
  };
  const events: RawEvent[] = [];
  for (let i = 0; i < count; i++) {
    const c = solution[Math.min(solution.length - 1, Math.floor((i * solution.length) / count))]!;
    const px = 20 + (c.x + 0.5) * CELL + jitter();
    const py = 20 + (c.y + 0.5) * CELL + jitter();
    events.push({ x: px / surfaceW, y: py / surfaceH, t: i * 8, type: i === 0 ? 'down' : 'move', pointer_type: 'mouse' });
  }
  if (!k.replay(maze, k.packEvents(events), CELL, { kind: 'verify' }).valid) throw new Error('bench trace is not valid');
  return events;
}

/**
 * `count` events at the centres of every `stride`-th solution cell and the exit, turn cells kept
 * or not (a stride that skips a turn cuts its corner), repeated.
 */
function strideTrace(solution: readonly Cell[], maze: MazeParams, count: number, stride: number, keepTurns: boolean): RawEvent[] {
  const turn = (i: number) => keepTurns && solution[i - 1]!.x !== solution[i + 1]!.x && solution[i - 1]!.y !== solution[i + 1]!.y;
  const kept = solution.filter((_c, i) => i % stride === 0 || i === solution.length - 1 || turn(i));
  const w = maze.width * CELL + 40;
  const h = maze.height * CELL + 64;
  return Array.from({ length: count }, (_, i) => {
    const c = kept[Math.min(kept.length - 1, Math.floor((i * kept.length) / count))]!;
    return { x: (20 + (c.x + 0.5) * CELL) / w, y: (20 + (c.y + 0.5) * CELL) / h, t: i * 16, type: i === 0 ? 'down' : 'move' };
  });
}

/** The start, then `count` events alternating between the far ends of the maze's first row and column. */
function bounceTrace(maze: MazeParams, count: number): RawEvent[] {
  const w = maze.width * CELL + 40;
  const h = maze.height * CELL + 64;
  const far = [
    { x: (20 + 0.5 * CELL) / w, y: (20 + (maze.height - 0.5) * CELL) / h },
    { x: (20 + (maze.width - 0.5) * CELL) / w, y: (20 + 0.5 * CELL) / h },
  ];
  return Array.from({ length: count + 1 }, (_, i) =>
    i === 0 ? { x: 21 / w, y: 21 / h, t: 0, type: 'down' } : { ...far[i % 2]!, t: i * 16, type: 'move' },
  );
}

/** The start, then `count` events at the centres of cells drawn at random (seeded), mostly noise. */
function scatterTrace(maze: MazeParams, count: number): RawEvent[] {
  const w = maze.width * CELL + 40;
  const h = maze.height * CELL + 64;
  let seed = 0x5ca7;
  const draw = (side: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    return Math.floor((seed / 2 ** 32) * side) + 0.5;
  };
  return Array.from({ length: count + 1 }, (_, i) =>
    i === 0
      ? { x: 21 / w, y: 21 / h, t: 0, type: 'down' }
      : { x: (20 + draw(maze.width) * CELL) / w, y: (20 + draw(maze.height) * CELL) / h, t: i * 16, type: 'move' },
  );
}

function statsRow(task: Task, extra: Record<string, number | string> = {}): Row {
  const r = task.result;
  if (r.state !== 'completed') throw new Error(`${task.name}: ${r.state === 'errored' ? r.error.message : r.state}`);
  return {
    name: task.name,
    median_us: r.latency.p50 * 1000,
    mean_us: r.latency.mean * 1000,
    p99_us: r.latency.p99 * 1000,
    ops_per_s: 1000 / r.latency.mean,
    samples: r.latency.samplesCount,
    ...extra,
  };
}

export async function runKernelBench(): Promise<Section> {
  const k = await loadKernel();
  const bench = new Bench({ name: 'kernel', time: 600, warmupTime: 150 });

  let seed = 1;
  bench.add('maze 8x8 (generate)', () => {
    k.generateMaze({ seed: seed++, width: 8, height: 8, difficulty: 0.3 });
  });
  bench.add('maze 16x16 (generate)', () => {
    k.generateMaze({ seed: seed++, width: 16, height: 16, difficulty: 0.3 });
  });
  bench.add('maze 16x16 (profile)', () => {
    k.profile({ seed: seed++, width: 16, height: 16, difficulty: 0.3 });
  });

  const maze = { seed: 42, width: 8, height: 8, difficulty: 0.3 };
  const solution = k.generateMaze(maze).solution;
  const packed = new Map<number, Float64Array>();
  const raw = new Map<number, RawEvent[]>();
  for (const n of [200, 2000, 20000]) {
    raw.set(n, trace(k, maze, solution, n));
    packed.set(n, k.packEvents(raw.get(n)!));
    const events = packed.get(n)!;
    bench.add(`replay ${n} events`, () => {
      k.replay(maze, events, CELL, { kind: 'verify' });
    });
  }
  const events2000 = packed.get(2000)!;
  let sink = 0;
  bench.add('plain JS read of 2000 packed events', () => {
    let s = 0;
    for (let i = 0; i < events2000.length; i += 4) s += events2000[i]! + events2000[i + 1]! + events2000[i + 3]!;
    sink += s;
  });
  // What /verify's scoring runs per trace: the kernel's feature pass over the packed events.
  const scorer = await openKernel(new URL('../build/kernel.wasm', import.meta.url));
  bench.add('features 2000 events (scoring)', () => {
    scorer.features(maze, events2000, CELL);
  });
  const raw2000 = raw.get(2000)!;
  bench.add('packEvents 2000 raw events', () => {
    k.packEvents(raw2000);
  });
  let freshSeed = 1000;
  bench.add('replay 2000 events, new 8x8 maze each call', () => {
    k.replay({ ...maze, seed: freshSeed++ }, events2000, CELL, { kind: 'verify' });
  });

  // A fast stroke: 2,000 events along the solution, every other cell seen (each jump is filled
  // by the segment walk); the same seeing every third cell, turns not kept (the jumps that cut a
  // corner are filled by the detour); and 20,000 events jumping between far cells of the largest
  // maze, each a segment walk tried from the start (and, where it meets a wall, the bounded
  // detour).
  const strided = k.packEvents(strideTrace(solution, maze, 2000, 2, true));
  bench.add('replay 2000 events, jumps over a cell filled', () => {
    k.replay(maze, strided, CELL, { kind: 'verify' });
  });
  const cut = k.packEvents(strideTrace(solution, maze, 2000, 3, false));
  if (!k.replay(maze, cut, CELL, { kind: 'verify' }).valid) throw new Error('bench trace with cut corners is not valid');
  bench.add('replay 2000 events, corners cut (detours)', () => {
    k.replay(maze, cut, CELL, { kind: 'verify' });
  });
  const big = { seed: 5, width: 32, height: 32, difficulty: 0.5 };
  const bouncing = k.packEvents(bounceTrace(big, 20000));
  bench.add('replay 20000 events jumping across 32x32 (a segment walk tried each time)', () => {
    k.replay(big, bouncing, CELL, { kind: 'verify' });
  });

  // The costliest replay found: events at random cells, most of them noise, each tried by the
  // segment walk and then by the bounded detour's search (up to every cell of the maze).
  const scattered = k.packEvents(scatterTrace(maze, 20000));
  bench.add('replay 20000 events at random cells of 8x8 (a detour searched for most)', () => {
    k.replay(maze, scattered, CELL, { kind: 'verify' });
  });

  let nonce = 0;
  bench.add('checkPow (64-char challenge)', () => {
    k.checkPow(CHALLENGE, nonce++, 20);
  });

  // Solve loops: each iteration tries the same POW_BATCH nonces of the same challenge.
  bench.add(`pow solve wasm (${POW_BATCH} nonces)`, () => {
    k.solvePow(CHALLENGE, 256, 0, POW_BATCH);
  });
  const zeroBits = (d: Uint8Array) => {
    let bits = 0;
    for (const b of d) {
      if (b !== 0) return bits + Math.clz32(b) - 24;
      bits += 8;
    }
    return bits;
  };
  bench.add(`pow solve node:crypto createHash (${POW_BATCH} nonces)`, () => {
    for (let n = 0; n < POW_BATCH; n++) {
      if (
        zeroBits(
          createHash('sha256')
            .update(CHALLENGE + n)
            .digest(),
        ) >= 256
      )
        break;
    }
  });
  const encoder = new TextEncoder();
  bench.add(`pow solve WebCrypto digest (${POW_BATCH} nonces)`, async () => {
    for (let n = 0; n < POW_BATCH; n++) {
      const d = new Uint8Array(await webcrypto.subtle.digest('SHA-256', encoder.encode(CHALLENGE + n)));
      if (zeroBits(d) >= 256) break;
    }
  });

  await bench.run();
  if (sink === 0) throw new Error('unreachable: keeps the read loop alive');

  const byName = new Map(bench.tasks.map((t) => [t.name, t]));
  // Ratios use medians: other work on the machine inflates means and tails unevenly.
  const median = (name: string) => {
    const r = byName.get(name)!.result;
    if (r.state !== 'completed') throw new Error(`${name}: ${r.state}`);
    return r.latency.p50;
  };
  const rate = (name: string) => (POW_BATCH / median(name)) * 1000;
  const rows: Row[] = bench.tasks.map((t) => (t.name.startsWith('pow solve') ? statsRow(t, { hashes_per_s: rate(t.name) }) : statsRow(t)));

  const wasmRate = rate(`pow solve wasm (${POW_BATCH} nonces)`);
  const nodeRate = rate(`pow solve node:crypto createHash (${POW_BATCH} nonces)`);
  const webRate = rate(`pow solve WebCrypto digest (${POW_BATCH} nonces)`);
  rows.push({ name: 'ratio: wasm / WebCrypto hash rate', value: wasmRate / webRate, target: '>= 5' });
  rows.push({ name: 'ratio: wasm / node:crypto hash rate', value: wasmRate / nodeRate, target: '>= 1' });
  rows.push({
    name: 'ratio: replay 2000 / plain JS read',
    value: median('replay 2000 events') / median('plain JS read of 2000 packed events'),
  });
  rows.push({ name: 'replay 2000 events, median (us)', value: median('replay 2000 events') * 1000, target: '< 50' });
  rows.push({ name: 'features 2000 events, median (us)', value: median('features 2000 events (scoring)') * 1000, target: '< 100' });
  const size = statSync(new URL('../build/kernel.wasm', import.meta.url)).size;
  rows.push({ name: 'release kernel.wasm (KiB)', value: size / 1024, target: '< 64' });

  return {
    name: 'kernel',
    rows,
    notes: [
      'replay rows include the one copy of the packed events into wasm memory, not packEvents',
      'the maze of consecutive replays with the same parameters is generated once and reused',
      `pow solve rows hash the same ${POW_BATCH} inputs (challenge + decimal nonce) per iteration`,
      'hash rates and ratios come from median latencies of this run',
    ],
  };
}

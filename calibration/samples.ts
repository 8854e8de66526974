import { readFileSync } from 'node:fs';
import { extractFeatures } from '../src/kernel/features.js';
import { WasmKernel, kernelFromInstance, type Kernel, type MazeParams, type RawEvent } from '../src/kernel/index.js';
import type { FeatureSource } from '../src/core/scoring/FeatureSource.js';
import { BOT_FAMILIES, type BotFamily } from './bots/families.js';
import type { HumanTrace } from './people/humans.js';
import { layOnMaze } from './people/layOnMaze.js';
import { alongChord } from './people/layings/alongChord.js';
import type { Laying } from './people/layings/laying.js';
import { mazeFor } from './people/mazeFor.js';
import type { Rng } from './random.js';

export type CalibrationKernel = Kernel & FeatureSource;

/** The kernel with its feature export, from build/kernel.wasm. */
export async function openKernel(wasmFile: URL): Promise<CalibrationKernel> {
  const instance = await WebAssembly.instantiate(await WebAssembly.compile(readFileSync(wasmFile)), {});
  const wasm = new WasmKernel(instance);
  return Object.assign(kernelFromInstance(instance), {
    features: (maze: MazeParams, events: Float64Array, cellSize: number) => extractFeatures(wasm, maze, events, cellSize),
  });
}

export interface Sample {
  /** `human`, `replay` (copies of one human trace) or a bot family's name. */
  kind: string;
  /** A bot family's variant (its timing and pixel ratio). */
  variant?: string;
  user: string;
  /** The study a human trace comes from. */
  source?: string;
  maze: MazeParams;
  events: RawEvent[];
}

function randomMaze(rng: Rng, min: number, max: number): MazeParams {
  return { seed: rng.int(0, 0xffffffff), width: rng.int(min, max), height: rng.int(min, max), difficulty: rng.uniform(0.1, 0.9) };
}

/** Capture of a human trace: every recorded point, or the deployed widget's 33 ms throttle. */
export type Capture = 'native' | 'throttle33';
export const CAPTURES: readonly Capture[] = ['native', 'throttle33'];

/**
 * What the deployed widget's collector keeps of pointer events: a move at least `ms` after the
 * last one kept (the one entering the exit may be lost, as there); downs and ups always.
 */
export function throttle(events: readonly RawEvent[], ms: number): RawEvent[] {
  let last = -Infinity;
  return events.filter((e) => {
    if (e.type !== 'move') return true;
    if (e.t - last < ms) return false;
    last = e.t;
    return true;
  });
}

/**
 * A human trace laid on a maze by `laying` (by default along the chord at the person's own
 * length), as the server would receive it from a collector sending every point and from the
 * deployed widget's 33 ms throttle.
 */
export function humanSamples(kernel: Kernel, rng: Rng, trace: HumanTrace, laying: Laying = alongChord): Record<Capture, Sample> {
  const maze = laying.mazeFor(kernel, rng, trace);
  const events = laying.lay(trace, kernel.generateMaze(maze), rng);
  const sample = (e: RawEvent[]): Sample => ({ kind: 'human', user: trace.user, source: trace.source, maze, events: e });
  return { native: sample(events), throttle33: sample(throttle(events, 33)) };
}

/** Copies of one human trace, lightly re-timed, each laid onto another maze. */
export function replaySamples(kernel: Kernel, rng: Rng, trace: HumanTrace, copies: number, tag: string): Sample[] {
  return Array.from({ length: copies }, () => {
    const scale = rng.uniform(0.85, 1.15);
    let last = -1;
    const points = trace.points.map((p) => {
      const t = Math.max(last + 1, Math.round(p.t * scale + rng.uniform(-1, 1)));
      last = t;
      return { ...p, t };
    });
    const maze = mazeFor(kernel, rng, trace.pathPx * rng.uniform(0.8, 1.25));
    return { kind: 'replay' as const, user: `replay:${tag}`, maze, events: layOnMaze({ ...trace, points }, kernel.generateMaze(maze)) };
  });
}

/** One bot of `family` solving a random maze, in the family's `variant`-th variant. */
export async function botSample(kernel: Kernel, rng: Rng, family: BotFamily, variant: number, index: number): Promise<Sample> {
  const maze = randomMaze(rng, 4, 10);
  const events = await family.events(rng, kernel.generateMaze(maze), variant);
  return { kind: family.name, variant: family.variants[variant], user: `${family.name}:${index}`, maze, events };
}

/** `perFamily` bots of each family, its variants taking turns. */
export async function botSamples(
  kernel: Kernel,
  rng: Rng,
  perFamily: number,
  families: readonly BotFamily[] = BOT_FAMILIES,
): Promise<Sample[]> {
  const out: Sample[] = [];
  for (const family of families) {
    for (let i = 0; i < perFamily; i++) out.push(await botSample(kernel, rng, family, i % family.variants.length, i));
  }
  return out;
}

import { KernelInputError, type MazeParams, type PackedEvents, type TraceFeatures } from './types.js';
import { checkCellSize, checkMaze } from './validate.js';
import type { WasmKernel } from './wasmKernel.js';

/**
 * Slots written by the kernel's `features` export (assembly/features.ts), in order.
 * Lengths are in maze cells, times in seconds, speeds in cells/s.
 */
export const FEATURE_NAMES = [
  'event_count',
  'duration',
  'pointer_events',
  'key_events',
  'path_length',
  'efficiency_ratio',
  'interval_cv',
  'interval_entropy',
  'interval_kurtosis',
  'interval_zero_fraction',
  'interval_max',
  'speed_mean',
  'speed_cv',
  'speed_peak_ratio',
  'acceleration_norm',
  'acceleration_cv',
  'jerk_norm',
  'speed_autocorrelation',
  'curvature',
  'turn_mean',
  'angular_entropy',
  'pause_count',
  'pause_fraction',
  'onset',
  'submovement_rate',
  'submovements',
  'corridor_deviation',
  'corridor_deviation_sd',
  'on_rail_fraction',
  'jitter_ratio',
  'outside_fraction',
  'backward_timestamps',
  // Appended after v1 (tables look terms up by name, so older tables keep working).
  'speed_roughness',
  'step_roughness',
  // Appended in v3: how sub-movements unfold in time along the path, whatever the laying.
  'submovement_rise',
  'submovement_gap_cv',
] as const;

export type FeatureName = (typeof FEATURE_NAMES)[number];

/**
 * Shape samples: SHAPE_POINTS of the fraction of the duration elapsed at evenly spaced fractions
 * of the events, then SHAPE_POINTS of the fraction of the path covered at evenly spaced
 * fractions of the duration.
 */
export const SHAPE_POINTS = 24;
export const SHAPE_SIZE = 2 * SHAPE_POINTS;

interface FeatureExports {
  features(count: number, seed: number, width: number, height: number, difficulty: number, cellSize: number): number;
  featuresPtr(): number;
}

/**
 * Features of packed events over a maze, computed by the kernel in one call.
 * The events are copied into wasm memory once (as for replay).
 */
export function extractFeatures(wasm: WasmKernel, maze: MazeParams, events: PackedEvents, cellSize: number): TraceFeatures {
  checkMaze(maze);
  checkCellSize(cellSize);
  const ex = wasm.exports as unknown as FeatureExports;
  const count = wasm.writeEvents(events);
  const written = ex.features(count, maze.seed, maze.width, maze.height, maze.difficulty, cellSize);
  if (written !== FEATURE_NAMES.length) throw new KernelInputError('events', 'kernel refused the feature call');
  const at = ex.featuresPtr() >>> 3;
  const all = wasm.floats().slice(at, at + FEATURE_NAMES.length + SHAPE_SIZE);
  return { values: all.subarray(0, FEATURE_NAMES.length), shape: all.subarray(FEATURE_NAMES.length) };
}

/**
 * The kernel's typed API, identical in Node and in the browser.
 * Implemented over one WebAssembly module built from `assembly/` (see kernel.md).
 */

/** A grid cell; x grows to the right, y downwards. */
export interface Cell {
  x: number;
  y: number;
}

/** Wall bits of a cell, as in kernel.md section 2. */
export const WALL_N = 1;
export const WALL_S = 2;
export const WALL_E = 4;
export const WALL_W = 8;

/** Smallest and largest maze side the kernel accepts. */
export const MIN_MAZE_SIDE = 2;
export const MAX_MAZE_SIDE = 32;

/** Most events one call may carry. */
export const MAX_EVENTS = 1 << 20;
/** Largest PoW challenge and largest `leadingZeroBits` input, in bytes (UTF-8 for the challenge). */
export const MAX_INPUT_BYTES = 65536;
/** Most draws one `mulberry32` call returns. */
export const MAX_DRAWS = 8192;
/** Largest `batch` of one `solvePow` call. */
export const MAX_POW_BATCH = 0x7fffffff;
/** Largest maze cell size in pixels (the smallest is anything above 0). */
export const MAX_CELL_SIZE = 1000;

export interface MazeParams {
  /** uint32 seed. */
  seed: number;
  width: number;
  height: number;
  /** Branching parameter in [0, 1], used exactly as issued. */
  difficulty: number;
}

export interface Maze extends MazeParams {
  /** One byte of wall bits per cell, row-major (index y * width + x). */
  walls: Uint8Array;
  start: Cell;
  exit: Cell;
  /** The unique start-to-exit path, start and exit included. */
  solution: Cell[];
}

export interface MazeProfile {
  solutionLength: number;
  /** Solution cells with more than two open sides. */
  decisionPointCount: number;
  turnCount: number;
  /** Straight start-exit distance over the solution polyline length, in maze fractions. */
  optimalEfficiency: number;
}

/**
 * Event type codes as they cross into wasm memory. Unknown types map to OTHER and are
 * ignored by replay.
 */
export const EventCode = {
  move: 0,
  down: 1,
  up: 2,
  keydown: 3,
  keyup: 4,
  other: 5,
} as const;
export type EventCodeValue = (typeof EventCode)[keyof typeof EventCode];

/** A raw event as sent by a client (interface.md "Raw event", kernel.md section 3). */
export interface RawEvent {
  x: number;
  y: number;
  t: number;
  type: string;
  pointer_type?: string;
  coalesced_count?: number;
  key?: string;
}

/**
 * Events packed for the kernel: 4 float64 per event (x, y, t, type code), in arrival order.
 * One typed array per request crosses into wasm memory.
 */
export type PackedEvents = Float64Array;

/** `verify`: the /verify rules of kernel.md section 4. `probe`: the strict arm prefix ending on `trigger`. */
export type ReplayMode = { kind: 'verify' } | { kind: 'probe'; trigger: Cell };

export interface ReplayResult {
  valid: boolean;
  /** Cells recorded by the walk, start first; in verify mode and in a valid probe prefix, consecutive cells are open neighbours. */
  cells: Cell[];
  /** Index (in the packed events) of the first event in the start cell, or -1. */
  firstStartIndex: number;
}

export interface PowCheck {
  valid: boolean;
  /** Lowercase hex SHA-256 of `challenge + String(nonce)`. */
  hash: string;
  leadingZeroBits: number;
}

export interface PowSearch {
  /** The nonce found, or null when the batch ended without one. */
  nonce: number | null;
  /** Hash of the found nonce (lowercase hex), or null. */
  hash: string | null;
  /** Where the next batch should resume. */
  next: number;
}

/** A point in maze fractions: (0, 0) the maze's top-left corner, (1, 1) its bottom-right. */
export interface MazePoint {
  mx: number;
  my: number;
}

/** Where one event lands, as replay maps it (maze fractions clamped into [0, 1]). */
export interface MappedPoint extends MazePoint {
  cell: Cell;
}

export interface Kernel {
  /** `count` draws of mulberry32 from `seed` (for tests and tooling). */
  mulberry32(seed: number, count: number): Float64Array;
  generateMaze(params: MazeParams): Maze;
  profile(maze: MazeParams): MazeProfile;
  /** Packs raw events; unknown types become EventCode.other, non-numbers become NaN. */
  packEvents(events: readonly RawEvent[]): PackedEvents;
  /**
   * Maps one event to its cell as replay does (kernel.md 3): pointer types take canvas
   * fractions, keydown takes maze fractions; null for ignored types and non-finite x or y.
   */
  mapEvent(size: { width: number; height: number }, cellSize: number, x: number, y: number, type?: string): MappedPoint | null;
  /**
   * Replays packed events over the maze with the canvas geometry of `cellSize` (kernel.md 3-4).
   * Events count in arrival order (`t` is not consulted, so unsorted times change nothing);
   * events with a non-finite x or y are skipped; finite out-of-range coordinates clamp to the
   * edge cells. A jump between two events is filled by the segment walk when every cell it
   * crosses is open, else (not from the exit) by the bounded detour. In verify mode the final
   * cell decides: a walk that leaves the exit is valid only if it comes back to it; a trace the
   * plain walk (no jump filling) accepts is accepted too, and then its cells are the plain walk's.
   */
  replay(maze: MazeParams, events: PackedEvents, cellSize: number, mode: ReplayMode): ReplayResult;
  /**
   * The segment walk of replay's rule 3 on its own (kernel.md 4), for walking a trace one event
   * at a time: the cells the straight segment `from` -> `to` crosses after `from`'s cell, ending
   * with `to`'s cell ([] when they share one), or null when a step meets a wall. Coordinates are
   * clamped into [0, 1].
   */
  walkSegment(maze: MazeParams, from: MazePoint, to: MazePoint): Cell[] | null;
  /**
   * The bounded detour of replay's rule 3b on its own (kernel.md 4), tried where the segment walk
   * meets a wall: the cells of the shortest open route from `from` to `to` after `from`, ending
   * with `to` ([] when they are the same cell), ties broken by stepping N, S, E, W; null when
   * every open route is longer than |columns apart| + |rows apart| + 4 steps.
   */
  detour(maze: MazeParams, from: Cell, to: Cell): Cell[] | null;
  sha256(data: Uint8Array): Uint8Array;
  leadingZeroBits(digest: Uint8Array): number;
  /** Checks a proof of work (kernel.md section 5). */
  checkPow(challenge: string, nonce: number, difficulty: number): PowCheck;
  /** Searches `batch` nonces from `from` for one meeting `difficulty`; resumable. */
  solvePow(challenge: string, difficulty: number, from: number, batch: number): PowSearch;
  /** Kinematic features of a trace over the maze, in maze-cell units (assembly/features.ts). */
  features(maze: MazeParams, events: PackedEvents, cellSize: number): TraceFeatures;
}

/** Thrown by the TS wrapper for input it refuses (bad sizes, non-finite numbers where a number is required). */
export class KernelInputError extends Error {
  override readonly name = 'KernelInputError';
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

/** What the kernel measures of a trace (`features`). */
export interface TraceFeatures {
  /** Values in the order of FEATURE_NAMES (features.ts). */
  values: Float64Array;
  /** The trace's shape (SHAPE_SIZE samples in [0, 1]), for duplicate detection. */
  shape: Float64Array;
}

import { FEATURE_NAMES } from '../../kernel/features.js';
import type { MazeParams, RawEvent } from '../../kernel/types.js';
import type { VerifySeen } from './TrafficCounters.js';

/** The strings an event may keep as they came; any other is replaced (see sampledEvent). */
const EVENT_TYPES = new Set(['move', 'down', 'up', 'keydown', 'keyup']);
const POINTER_TYPES = new Set(['mouse', 'touch', 'pen']);
const MAZE_KEYS = new Set([
  'ArrowUp',
  'ArrowDown',
  'ArrowLeft',
  'ArrowRight',
  'w',
  'a',
  's',
  'd',
  'W',
  'A',
  'S',
  'D',
  ' ',
  'Enter',
  'Tab',
  'Shift',
]);

/** One event of a sampled trace: numbers, and strings from the closed sets above only. */
export type SampledEvent = RawEvent;

/**
 * A sampled /verify submission (one JSON line of the traces download): what the scorer needs to
 * learn from it, and nothing that identifies a person: no address, session id, token, key,
 * signature, challenge id or user agent, and of the client's own strings only those of closed
 * sets (an event's free text, such as a key typed that does not move in a maze, becomes `?` or a
 * stand-in numbered per trace, which keeps rollover and repeats readable).
 */
export interface TraceRecord {
  /** The record's shape. */
  v: 1;
  /** When it was answered, to the minute. */
  time: string;
  /** The site's label (core/traffic/siteLabel.ts). */
  site: string;
  /** `ok` or the error code /verify answered. */
  outcome: string;
  input_type: string | null;
  mode: 'enforce' | 'shadow' | null;
  score: number | null;
  reasons: string[];
  /** The maze of the challenge (absent when refused before it was known). */
  maze: MazeParams | null;
  /** The cell size the replay walked. */
  cell_size: number | null;
  /** The kernel's features of the trace, by name (null: not computed, or NaN). */
  features: Record<string, number | null> | null;
  events: SampledEvent[];
}

/** What verifySubmission knows of a submission when sampling it. */
export interface SampledSubmission {
  now: number;
  site: string;
  outcome: string;
  seen: VerifySeen;
  events: readonly RawEvent[];
}

/** The record of a submission: only the fields and values above, whatever else the request held. */
export function traceRecord(s: SampledSubmission): TraceRecord {
  const { scored, maze } = s.seen;
  const features = scored?.features;
  return {
    v: 1,
    time: new Date(Math.floor(s.now / 60_000) * 60_000).toISOString(),
    site: s.site,
    outcome: s.outcome,
    input_type: s.seen.inputType ?? null,
    mode: scored?.mode ?? null,
    score: scored?.score ?? null,
    reasons: scored ? [...scored.reasons] : [],
    maze: maze ? { seed: maze.seed, width: maze.width, height: maze.height, difficulty: maze.difficulty } : null,
    cell_size: s.seen.cellSize ?? null,
    features: features ? Object.fromEntries(FEATURE_NAMES.map((name, i) => [name, finite(features[i])])) : null,
    events: sampledEvents(s.events),
  };
}

function sampledEvents(events: readonly RawEvent[]): SampledEvent[] {
  const standIns = new Map<string, string>();
  const keyOf = (key: string) => {
    if (MAZE_KEYS.has(key)) return key;
    let standIn = standIns.get(key);
    if (standIn === undefined) {
      standIn = `key${standIns.size + 1}`;
      standIns.set(key, standIn);
    }
    return standIn;
  };
  return events.map((e) => {
    const out: SampledEvent = {
      x: finite(e.x) ?? 0,
      y: finite(e.y) ?? 0,
      t: finite(e.t) ?? 0,
      type: EVENT_TYPES.has(e.type) ? e.type : '?',
    };
    if (typeof e.pointer_type === 'string') out.pointer_type = POINTER_TYPES.has(e.pointer_type) ? e.pointer_type : '?';
    if (typeof e.coalesced_count === 'number') out.coalesced_count = finite(e.coalesced_count) ?? 0;
    if (typeof e.key === 'string') out.key = keyOf(e.key);
    return out;
  });
}

function finite(n: unknown): number | null {
  return typeof n === 'number' && Number.isFinite(n) ? n : null;
}

/**
 * Where the dashboard's numbers and the sampled traces are kept: per-minute counters (each a
 * field `minute\tsite\tname` with a count) and a bounded list of trace records (JSON lines).
 * Best effort, like a metrics system: a store that cannot answer loses a second of counts, and no
 * request ever waits on it (counts are flushed off the hot path, see core/traffic).
 */
export interface TrafficStore {
  /** Adds each `[field, n]` to its minute's count. */
  addCounts(counts: readonly (readonly [string, number])[]): Promise<void>;
  /** Every count of the minutes `from` to `to` (inclusive, minutes since the epoch), as `[field, n]`. */
  counts(from: number, to: number): Promise<[string, number][]>;
  /**
   * Keeps one sampled trace (a JSON line), dropping the oldest while more than the bounds are
   * kept; a line larger than the byte bound alone is not kept.
   */
  addTrace(line: string): Promise<void>;
  /** The traces kept, oldest first. */
  traces(): Promise<string[]>;
  close(): Promise<void>;
}

/** How long the minute counters live: the dashboard's longest window, a day, and an hour's slack. */
export const COUNTS_RETENTION_MINUTES = 25 * 60;

/** The bounds of the traces kept (TRACE_MAX_COUNT, TRACE_MAX_BYTES). */
export interface TraceBounds {
  maxCount: number;
  maxBytes: number;
}

/** The methods a server thread calls on the process's embedded TrafficStore (callOverPort). */
export const TRAFFIC_METHODS = ['addCounts', 'counts', 'addTrace', 'traces'] as const;

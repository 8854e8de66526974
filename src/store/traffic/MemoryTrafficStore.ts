import { COUNTS_RETENTION_MINUTES, type TraceBounds, type TrafficStore } from './TrafficStore.js';

/**
 * The embedded TrafficStore: this process's counts for COUNTS_RETENTION_MINUTES and its traces
 * within their bounds, in memory (lost on restart). One per process: with WORKERS > 1 the main
 * thread keeps it and the server threads call it over message ports.
 */
export class MemoryTrafficStore implements TrafficStore {
  /** Counts by minute, then by `site\tname`. */
  readonly #minutes = new Map<number, Map<string, number>>();
  readonly #traces: string[] = [];
  /** Index of the oldest trace kept in #traces (dropped ones are cut off in batches). */
  #head = 0;
  #bytes = 0;
  /** The oldest minute kept at the last pruning. */
  #pruned = -1;
  readonly #bounds: TraceBounds;
  readonly #now: () => number;

  constructor(bounds: TraceBounds, now: () => number = Date.now) {
    this.#bounds = bounds;
    this.#now = now;
  }

  async addCounts(counts: readonly (readonly [string, number])[]): Promise<void> {
    for (const [field, n] of counts) {
      const tab = field.indexOf('\t');
      const minute = Number(field.slice(0, tab));
      let fields = this.#minutes.get(minute);
      if (fields === undefined) {
        fields = new Map();
        this.#minutes.set(minute, fields);
      }
      const rest = field.slice(tab + 1);
      fields.set(rest, (fields.get(rest) ?? 0) + n);
    }
    // Minutes are forgotten once a minute, not at every flush.
    const oldest = Math.floor(this.#now() / 60_000) - COUNTS_RETENTION_MINUTES;
    if (oldest === this.#pruned) return;
    this.#pruned = oldest;
    for (const minute of this.#minutes.keys()) if (minute < oldest) this.#minutes.delete(minute);
  }

  async counts(from: number, to: number): Promise<[string, number][]> {
    const out: [string, number][] = [];
    for (const [minute, fields] of this.#minutes) {
      if (minute < from || minute > to) continue;
      for (const [rest, n] of fields) out.push([`${minute}\t${rest}`, n]);
    }
    return out;
  }

  async addTrace(line: string): Promise<void> {
    const bytes = Buffer.byteLength(line);
    if (bytes > this.#bounds.maxBytes) return;
    this.#traces.push(line);
    this.#bytes += bytes;
    while (this.#traces.length - this.#head > this.#bounds.maxCount || this.#bytes > this.#bounds.maxBytes) {
      this.#bytes -= Buffer.byteLength(this.#traces[this.#head]!);
      this.#traces[this.#head++] = '';
    }
    // Cut the dropped slots off once they are half the array: amortised O(1) per trace.
    if (this.#head > 1024 && this.#head * 2 > this.#traces.length) {
      this.#traces.splice(0, this.#head);
      this.#head = 0;
    }
  }

  async traces(): Promise<string[]> {
    return this.#traces.slice(this.#head);
  }

  /** Bytes of the traces kept (their JSON lines, UTF-8): for the bounds' tests. */
  get traceBytes(): number {
    return this.#bytes;
  }

  async close(): Promise<void> {}
}

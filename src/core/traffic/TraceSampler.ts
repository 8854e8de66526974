import type { Logger } from 'pino';
import type { TrafficStore } from '../../store/traffic/TrafficStore.js';
import { type SampledSubmission, traceRecord } from './traceRecord.js';

/**
 * Keeps a random share (TRACE_SAMPLE_RATE) of /verify submissions as TraceRecords in the
 * TrafficStore, which bounds them. Writing is not awaited by the request: a store that refuses
 * loses the sample (logged).
 */
export class TraceSampler {
  readonly #rate: number;
  readonly #store: TrafficStore;
  readonly #log: Logger | undefined;
  readonly #random: () => number;

  constructor(store: TrafficStore, rate: number, opts: { log?: Logger; random?: () => number } = {}) {
    this.#store = store;
    this.#rate = rate;
    this.#log = opts.log;
    this.#random = opts.random ?? Math.random;
  }

  /** Whether this submission is to be kept: decided before the record is built, which costs. */
  picks(): boolean {
    return this.#rate > 0 && this.#random() < this.#rate;
  }

  keep(s: SampledSubmission): void {
    this.#store.addTrace(JSON.stringify(traceRecord(s))).catch((e: unknown) => {
      this.#log?.warn({ err: e instanceof Error ? e.message : String(e) }, 'sampled trace dropped');
    });
  }
}

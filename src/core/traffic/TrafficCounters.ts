import type { Logger } from 'pino';
import type { TrafficStore } from '../../store/traffic/TrafficStore.js';
import type { MazeParams } from '../../kernel/types.js';
import type { InputType } from '../scoring/ScoringTable.js';
import type { Scored } from '../scoring/Scored.js';
import { COUNTER, latencyBucket, scoreBucket } from './trafficNames.js';

const ENFORCED_SCORE = (bucket: string) => COUNTER.score('enforce', Number(bucket));
const SHADOW_SCORE = (bucket: string) => COUNTER.score('shadow', Number(bucket));

function bump(counts: Map<string, number>, name: string): void {
  counts.set(name, (counts.get(name) ?? 0) + 1);
}

/** How often the counts gathered are added to the store. */
export const FLUSH_INTERVAL_MS = 1_000;

/** What /verify saw of a submission, as far as it got (core/verify/verifySubmission.ts). */
export interface VerifySeen {
  /** The input type inferred from the events (absent when refused before). */
  inputType?: InputType;
  /** The maze replayed, and the cell size of the canvas it was replayed on (absent when refused before). */
  maze?: MazeParams;
  cellSize?: number;
  /** Scoring's verdict, when scoring ran in enforce or shadow mode. */
  scored?: Scored;
}

/**
 * The dashboard's counters of one server: each event adds one to a count of the current minute in
 * a Map (no store call, no await on the hot path); every FLUSH_INTERVAL_MS the counts gathered are
 * handed to the TrafficStore in one call and start again from zero. Counts that the store refuses
 * are dropped (logged), never retried: the dashboard is told, the requests never wait.
 */
export class TrafficCounters {
  /**
   * Counts of the current minute by site, then by name: two lookups of strings whose hashes V8
   * keeps (site keys and the names below are made once), no string built per count.
   */
  #current = new Map<string, Map<string, number>>();
  #minute = -1;
  /** Earlier minutes' counts not handed over yet, as `[field, n]`. */
  #done: [string, number][] = [];
  readonly #store: TrafficStore;
  readonly #now: () => number;
  readonly #log: Logger | undefined;
  readonly #timer: NodeJS.Timeout;
  /** Per route, its latency counters' names by bucket (built once: no string built per answer). */
  readonly #latencyNames = new Map<string, string[]>();
  /** Names by the code or value they count, per kind, built once each. */
  readonly #names = new Map<(v: string) => string, Map<string, string>>();
  readonly #powNames: string[] = [];

  constructor(store: TrafficStore, opts: { now?: () => number; log?: Logger; flushIntervalMs?: number } = {}) {
    this.#store = store;
    this.#now = opts.now ?? Date.now;
    this.#log = opts.log;
    this.#timer = setInterval(() => void this.flush(), opts.flushIntervalMs ?? FLUSH_INTERVAL_MS);
    this.#timer.unref();
  }

  /** A challenge issued for `site` at `powBits` of proof of work. */
  challengeIssued(site: string, powBits: number): void {
    const counts = this.#countsOf(site);
    bump(counts, COUNTER.challenge);
    bump(counts, (this.#powNames[powBits] ??= COUNTER.pow(powBits)));
  }

  /** A /verify answered `outcome` (`ok` or an error code) for `site`, having seen `seen`. */
  verified(site: string, outcome: string, seen: VerifySeen): void {
    const counts = this.#countsOf(site);
    bump(counts, this.#name(COUNTER.verify, outcome));
    if (seen.inputType !== undefined) bump(counts, this.#name(COUNTER.input, seen.inputType));
    const { scored } = seen;
    if (scored === undefined) return;
    bump(counts, this.#name(scored.mode === 'enforce' ? ENFORCED_SCORE : SHADOW_SCORE, String(scoreBucket(scored.score))));
    for (const reason of scored.reasons) bump(counts, this.#name(COUNTER.reason, reason));
  }

  /** A /siteverify answered `outcome` (`ok` or an error code) for `site`. */
  redeemed(site: string, outcome: string): void {
    bump(this.#countsOf(site), this.#name(COUNTER.siteverify, outcome));
  }

  /**
   * A request of `site` refused by the rate limit of `bucket`; `firstOfClient` when it is its
   * client's first refusal in the limit's window (so limited clients are counted, not kept).
   */
  limited(site: string, bucket: string, firstOfClient: boolean): void {
    const counts = this.#countsOf(site);
    bump(counts, this.#name(COUNTER.limited, bucket));
    if (firstOfClient) bump(counts, this.#name(COUNTER.limitedClients, bucket));
  }

  /** `route` answered in `ms` (filed under no site: a route's latency is the server's). */
  answered(route: string, ms: number): void {
    let names = this.#latencyNames.get(route);
    if (names === undefined) {
      names = Array.from({ length: latencyBucket(Infinity) + 1 }, (_, b) => COUNTER.latency(route, b));
      this.#latencyNames.set(route, names);
    }
    bump(this.#countsOf(''), names[latencyBucket(ms)]!);
  }

  /** Hands the counts gathered so far to the store (the timer calls this; so does close). */
  async flush(): Promise<void> {
    this.#closeMinute();
    const counts = this.#done;
    if (counts.length === 0) return;
    this.#done = [];
    await this.#store.addCounts(counts).catch((e: unknown) => {
      this.#log?.warn({ err: e instanceof Error ? e.message : String(e), fields: counts.length }, 'dashboard counts dropped');
    });
  }

  /** Stops the timer after a last flush. */
  async close(): Promise<void> {
    clearInterval(this.#timer);
    await this.flush();
  }

  /** The current minute's counts of `site` (one clock read and one lookup per event, whatever it counts). */
  #countsOf(site: string): Map<string, number> {
    const minute = Math.floor(this.#now() / 60_000);
    if (minute !== this.#minute) {
      this.#closeMinute();
      this.#minute = minute;
    }
    let counts = this.#current.get(site);
    if (counts === undefined) {
      counts = new Map();
      this.#current.set(site, counts);
    }
    return counts;
  }

  /** Moves the current minute's counts to the ones to hand over, as fields `minute\tsite\tname`. */
  #closeMinute(): void {
    for (const [site, names] of this.#current) for (const [name, n] of names) this.#done.push([`${this.#minute}\t${site}\t${name}`, n]);
    this.#current = new Map();
  }

  #name(kind: (value: string) => string, value: string): string {
    let names = this.#names.get(kind);
    if (names === undefined) {
      names = new Map();
      this.#names.set(kind, names);
    }
    let name = names.get(value);
    if (name === undefined) {
      name = kind(value);
      names.set(value, name);
    }
    return name;
  }
}

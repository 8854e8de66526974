import { type Child, cpuSeconds } from './processes.js';
import { type LoadResult, type LoadSpec, runWrk } from './wrk.js';

/** Rounds of a measurement in turns (see measureInTurns). */
export const ROUNDS = 3;

/** A load without its target: the children it drives supply the URL, and 200 is expected. */
export type Load = Omit<LoadSpec, 'url' | 'expectStatus'>;

/** One wrk run and the CPU time its server used meanwhile. */
interface Run {
  load: LoadResult;
  count: number;
  cpu: number;
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/**
 * Drives servers (child processes) with wrk and records, per key, their rate, latency and CPU
 * use into `metrics` (`<key>_rps`, `_p50_ms`, `_p99_ms`, `_cpu_pct`, `_wrk_cpu_pct`, `_cpu_us`,
 * `_per_cpu_s`); answers not as expected go to `errors`.
 */
export class RouteMeasurements {
  constructor(
    /** wrk's working folder. */
    readonly work: string,
    readonly metrics: Record<string, number>,
    readonly errors: string[],
  ) {}

  /** Drives `child` once with `load` and records it under `key`. */
  async measure(key: string, child: Child, load: Load): Promise<void> {
    this.#record(key, [await this.#drive(child, load)]);
  }

  /**
   * Drives the children in turns, A B A B ..., each round with the next share of `load.bodies`
   * (each body goes once to every child; or `load.count` requests cycling fewer bodies), and
   * records each child's totals under its key. Two servers compared by a ratio then share whatever
   * drift the machine's speed has through the run (other work on shared cores), instead of one
   * getting a slow minute and the other a fast one.
   */
  async measureInTurns(children: { key: string; child: Child }[], load: Omit<Load, 'count'> & { count?: number }): Promise<void> {
    // Without a count, each body once; with one beyond the bodies, every round cycles them all.
    const count = load.count ?? load.bodies.length;
    const share = Math.ceil(count / ROUNDS);
    const runs = new Map(children.map(({ key }) => [key, [] as Run[]]));
    for (let from = 0; from < count; from += share) {
      const n = Math.min(share, count - from);
      const bodies = load.bodies.length >= count ? load.bodies.slice(from, from + n) : load.bodies;
      for (const { key, child } of children) runs.get(key)!.push(await this.#drive(child, { ...load, bodies, count: n }));
    }
    for (const [key, done] of runs) this.#record(key, done);
  }

  /**
   * Sends each of `bodies` once to `path` of each server, unmeasured: for the first few thousand
   * requests of a route V8's optimising compilers (JavaScript, and the kernel's WebAssembly) still
   * run on the pinned core, so a route is warmed up before its figures are taken.
   */
  async warmUp(path: string, bodies: string[], urls: string[]): Promise<void> {
    for (const url of urls)
      await runWrk(this.work, { url, path, bodies, count: bodies.length, expectStatus: 200, expectText: '"success":true' });
  }

  /** One wrk run against `child`, with the CPU time the child used meanwhile. */
  async #drive(child: Child, load: Load): Promise<Run> {
    const pid = child.proc.pid as number;
    const cpuBefore = cpuSeconds(pid);
    const result = await runWrk(this.work, { ...load, url: child.url, expectStatus: 200 });
    return { load: result, count: load.count, cpu: cpuSeconds(pid) - cpuBefore };
  }

  /** Records rate, latency and CPU use under `key`, over one run or the rounds of one. */
  #record(key: string, runs: Run[]): void {
    const { metrics } = this;
    const count = sum(runs.map((r) => r.count));
    const seconds = sum(runs.map((r) => r.load.seconds));
    const cpu = sum(runs.map((r) => r.cpu));
    metrics[`${key}_rps`] = seconds > 0 ? sum(runs.map((r) => r.load.responses)) / seconds : 0;
    // Latency over several rounds: the median round's p50, the worst round's p99.
    metrics[`${key}_p50_ms`] = median(runs.map((r) => r.load.p50Ms));
    metrics[`${key}_p99_ms`] = Math.max(...runs.map((r) => r.load.p99Ms));
    if (seconds > 0) metrics[`${key}_cpu_pct`] = (cpu / seconds) * 100;
    if (seconds > 0) metrics[`${key}_wrk_cpu_pct`] = sum(runs.map((r) => r.load.generatorCpuPct * r.load.seconds)) / seconds;
    // CPU time per answer: unlike req/s, it holds when other work shares the cores
    metrics[`${key}_cpu_us`] = (cpu / count) * 1e6;
    // Answers per second of server CPU: pinned to one core, what one core does.
    if (cpu > 0) metrics[`${key}_per_cpu_s`] = count / cpu;
    const errorCount = sum(runs.map((r) => r.load.errors));
    if (errorCount > 0) {
      const first = runs.find((r) => r.load.firstError !== undefined)?.load.firstError;
      this.errors.push(`${key}: ${errorCount} of ${count} not as expected (first: ${first ?? 'socket error or no answer'})`);
    }
  }
}

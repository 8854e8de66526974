/**
 * Where one /verify's time goes, stage by stage: the whole route in process (body copy, parse,
 * schema, verifyRoute's handler, the answer's text, metrics), on the same kind of bodies the HTTP
 * bench sends (each a fresh challenge and key), after the same warm-up. The core's stages are
 * those verifySubmission itself reports to the context's stage observer (VerifyStageObserver):
 * this module reads the clock as each ends. Serving, no observer is set and no clock is read.
 *
 * Each stage's figure is its wall time per request, scaled by the run's CPU time over its wall
 * time (a process pinned to a core shared with other work is sometimes not running), with the
 * garbage collections that fell inside it taken out and shown as their own row. The whole route
 * is also measured unobserved on other bodies of the same run: what it takes beyond the stages'
 * sum is what the observer itself costs and what falls outside the stages.
 *
 * As a section of `npm run bench` (`--only stages`), or alone after `npm run build`:
 *   node --import tsx bench/verifyStages.ts [events]   (prints the result as JSON)
 * The HTTP section runs it in a child pinned to the server's core, with the server's heap flags.
 */
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { pino } from 'pino';
import { loadConfig, type Config } from '../src/config.js';
import type { CoreContext } from '../src/core/context.js';
import { type Challenge, issueChallenge } from '../src/core/challenge/issueChallenge.js';
import type { VerifyStage } from '../src/core/verify/VerifyStageObserver.js';
import { challengeJson } from '../src/http/challengeJson.js';
import { createServer } from '../src/http/createServer.js';
import { Metrics } from '../src/http/metrics.js';
import { parseJson } from '../src/http/parseJson.js';
import type { PostRoute, RequestInfo } from '../src/http/route.js';
import type { Store } from '../src/store/Store.js';
import { verifyRoute } from '../src/http/routes/verify.js';
import { compileSchemas } from '../src/http/schemas.js';
import type { RawEvent } from '../src/kernel/types.js';
import type { Section } from './section.js';
import { threadCpuSeconds } from './http/processes.js';
import { SECRET, SITE_KEY } from './http/bodies.js';

/** The HTTP layer's own stages around the core's (createServer's post route, readBody, writeReply). */
type HttpStage = 'bodyCopy' | 'parse' | 'schema' | 'answer' | 'metrics';

/** Every stage of one valid /verify (shadow scoring), in the order they run, with its name in the table. */
const STAGE_NAMES = {
  bodyCopy: 'body copy (uWS chunk to Buffer)',
  parse: 'JSON parse (UTF-8 text, JSON.parse, depth and surrogate walk)',
  schema: 'schema',
  site: 'site and origin',
  authentication: 'id authentication (and passkey shape)',
  consume: 'consume',
  pow: 'proof of work (and input type)',
  timeBound: 'time bound',
  replay: 'replay (maze, packing, walk)',
  probe: 'probe tokens',
  digest: 'events digest (JSON text and SHA-256)',
  signature: 'signature (import and verify)',
  passkey: 'passkey',
  features: 'features (kernel)',
  duplicateLookup: 'fingerprints (duplicate lookup)',
  scoring: 'scoring (terms, reasons)',
  remember: 'fingerprints (remember)',
  logging: 'logging (shadow score, level off)',
  token: 'token',
  answer: 'answer (the promises back to the route, reply object, JSON text)',
  metrics: 'metrics',
} as const satisfies Record<HttpStage | VerifyStage, string>;

type Stage = keyof typeof STAGE_NAMES;
const STAGE_ORDER = Object.keys(STAGE_NAMES) as Stage[];

/** The stages of one /verify, in the order the server runs them. */
export const STAGES = STAGE_ORDER.map((s) => STAGE_NAMES[s]);

export interface StageResult {
  events: number;
  bodyBytes: number;
  requests: number;
  /** µs per request, CPU-scaled, GC taken out; same order as STAGES. */
  stagesUs: number[];
  gcUs: number;
  /** The stages and GC summed. */
  sumUs: number;
  /** Median over the staged requests of the share of each one's wall time from its first stage's start to its last stage's end. */
  coveredShare: number;
  /** The whole route in process (body copy to answer text), main thread, µs per request. */
  routeUs: number;
  /** CPU of the process's other threads (V8's concurrent marking and sweeping, the compiler) per request, staged and whole alike. */
  helpersUs: number;
}

/**
 * Writes performance.now() into `marks` as a request starts and as each of its stages ends, and
 * refuses a stage that ends out of STAGE_ORDER or a request that ends with a stage missing.
 */
class StageClock {
  #marks: Float64Array = new Float64Array(STAGE_ORDER.length + 1);
  #at = 0;
  #next = 0;
  start(marks: Float64Array, at: number): void {
    this.#marks = marks;
    this.#at = at;
    this.#next = 0;
    marks[at] = performance.now();
  }
  readonly end = (stage: Stage): void => {
    const due = STAGE_ORDER[this.#next];
    if (stage !== due) throw new Error(`stage ${stage} ended where ${due ?? 'none'} was due`);
    this.#marks[this.#at + ++this.#next] = performance.now();
  };
  finish(): void {
    if (this.#next !== STAGE_ORDER.length) throw new Error(`the request ended before stage ${STAGE_ORDER[this.#next]}`);
  }
}

const INFO: RequestInfo = { origin: '', authorization: '', contentType: 'application/json', address: '127.0.0.1' };

/**
 * One body through the route in process, as the server runs it once the body is read: the copy
 * out of uWS memory (readBody), parse and schema (createServer's post), verifyRoute's handler,
 * the answer's text (writeReply), metrics. With `clock`, `ctx` is one whose stage observer is the
 * clock's, and the clock marks each stage.
 */
async function request(ctx: CoreContext, body: ArrayBuffer, route: PostRoute, metrics: Metrics, clock?: StageClock): Promise<void> {
  const startedAt = performance.now();
  const bytes = Buffer.from(body);
  clock?.end('bodyCopy');
  const parsed = parseJson(bytes);
  if (!parsed.ok) throw new Error(parsed.detail);
  clock?.end('parse');
  if (!route.check.Check(parsed.value)) throw new Error('schema');
  clock?.end('schema');
  const reply = await route.handle(ctx, parsed.value as never, INFO);
  const text = JSON.stringify(reply.body);
  if (reply.status !== 200) throw new Error(`answered ${reply.status} ${text}`);
  clock?.end('answer');
  metrics.route('/verify').observe(reply.status, startedAt, reply.code);
  clock?.end('metrics');
  clock?.finish();
}

/** The bench server's settings (http/processes.ts startServer), as the stages see them. */
function benchConfig(): Config {
  const r = loadConfig({
    NODE_ENV: 'production',
    SIGNING_SECRET: SECRET,
    WORKERS: '1',
    RATE_LIMIT_PER_MINUTE: '0',
    POW_DIFFICULTY: '1',
    SCORING_MODE: 'shadow',
    CHALLENGE_TTL_MS: '600000',
    LOG_LEVEL: 'warn',
  });
  if (!r.ok) throw new Error(`bench config: ${r.error}`);
  return r.config;
}

/** Events along the solution, `perStep` moves per cell step (default: the test client's three). */
async function bodiesFor(ctx: CoreContext, n: number, events: number | undefined): Promise<string[]> {
  const client = await import('../test/helpers/client.js');
  const bodies: string[] = [];
  for (let i = 0; i < n; i++) {
    const issued = await issueChallenge(ctx, { site_key: SITE_KEY }, { origin: '', address: '127.0.0.1' });
    if (!issued.ok) throw new Error(`challenge refused: ${issued.failure.code}`);
    const ch = JSON.parse(challengeJson(issued.challenge)) as Challenge;
    const cells = client.solution(ctx.kernel, ch);
    const perStep = events === undefined ? undefined : Math.ceil((events - 2) / Math.max(1, cells.length - 1));
    const along = perStep === undefined ? undefined : Array.from({ length: perStep }, (_, k) => (k + 1) / perStep);
    const trace = client.traceEvents(ch, cells, along === undefined ? {} : { along });
    bodies.push(JSON.stringify(client.buildSubmission(ctx.kernel, ch, { sessionId: `bench-${i}`, events: trace })));
  }
  return bodies;
}

/** Garbage collections seen since `observe()`: start and duration, ms (performance.now's clock). */
class GcLog {
  readonly starts: number[] = [];
  readonly durations: number[] = [];
  readonly #observer = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      this.starts.push(e.startTime);
      this.durations.push(e.duration);
    }
  });
  observe(): void {
    this.#observer.observe({ entryTypes: ['gc'] });
  }
  /** Lets the observer's queued entries arrive, then stops. */
  async stop(): Promise<void> {
    await new Promise((r) => setTimeout(r, 50));
    this.#observer.disconnect();
  }
}

let compiled: { config: Config; schemas: ReturnType<typeof compileSchemas> } | undefined;
function schemasOf(config: Config): ReturnType<typeof compileSchemas> {
  if (compiled?.config !== config) compiled = { config, schemas: compileSchemas(config.maxEvents) };
  return compiled.schemas;
}

/** The server's own context (its store, kernel, signature verifier, fingerprints) for the bench's settings, not listening. */
async function benchContext(opts: {
  now: () => number;
  store?: Store;
}): Promise<{ ctx: CoreContext; config: Config; close(): Promise<void> }> {
  const config = benchConfig();
  let ctx: CoreContext | undefined;
  const server = await createServer({
    config,
    logger: pino({ level: config.logLevel }),
    now: opts.now,
    ...(opts.store === undefined ? {} : { store: opts.store }),
    mount: (_app, c) => {
      ctx = c;
    },
  });
  return { ctx: ctx!, config, close: () => server.close(0) };
}

/** `n` valid /verify bodies (see bodiesFor), their challenges issued two minutes ago so any trace fits. */
export async function makeVerifyBodies(n: number, events: number | undefined): Promise<string[]> {
  const { ctx, close } = await benchContext({ now: () => Date.now() - 120_000 });
  try {
    return await bodiesFor(ctx, n, events);
  } finally {
    await close();
  }
}

/** Runs bodies through the whole route in process (see request), unobserved, on a context of its own. */
export async function routeRunner(opts: { store: Store }): Promise<{ run(body: ArrayBuffer): Promise<void>; close(): Promise<void> }> {
  const { ctx, config, close } = await benchContext({ now: Date.now, store: opts.store });
  const route = verifyRoute(schemasOf(config));
  const metrics = new Metrics({});
  return { run: (body) => request(ctx, body, route, metrics), close };
}

/**
 * The GC pause time within [from, to) ms: each pause counts for the part of it inside the window, so
 * a stage is never charged more pause than its own length (a pause spanning a whole stage leaves it
 * at exactly zero, not at a rounding error below it).
 */
function gcWithin(gc: GcLog, from: number, to: number): number {
  let ms = 0;
  for (let i = 0; i < gc.starts.length; i++) {
    const start = Math.max(gc.starts[i]!, from);
    const end = Math.min(gc.starts[i]! + gc.durations[i]!, to);
    if (end > start) ms += end - start;
  }
  return ms;
}

/**
 * Measures `requests` bodies stage by stage and `requests` more through the whole route
 * unobserved, after `warmUp` requests (one in ten of them observed). `events`: events per trace (default: the test client's traces,
 * about 60 events, as the HTTP bench sends).
 */
export async function measureVerifyStages(opts: { requests: number; warmUp: number; events?: number }): Promise<StageResult> {
  // Traces of 2,000 events span a minute: once the bodies are made, the clock runs that far ahead.
  let ahead = 0;
  const { ctx: c, config, close } = await benchContext({ now: () => Date.now() + ahead });
  try {
    const route = verifyRoute(schemasOf(config));
    const metrics = new Metrics({});
    const toBuffers = (texts: string[]) => texts.map((t) => new Uint8Array(Buffer.from(t)).buffer);
    const warm = toBuffers(await bodiesFor(c, opts.warmUp, opts.events));
    const stagedBodies = toBuffers(await bodiesFor(c, opts.requests, opts.events));
    const wholeBodies = toBuffers(await bodiesFor(c, opts.requests, opts.events));
    ahead = 120_000;
    const clock = new StageClock();
    const observed: CoreContext = { ...c, verifyStages: clock.end };
    const scratch = new Float64Array(STAGES.length + 1);
    for (let i = 0; i < warm.length; i++) {
      if (i % 10 === 9) {
        clock.start(scratch, 0);
        await request(observed, warm[i]!, route, metrics, clock);
      } else {
        await request(c, warm[i]!, route, metrics);
      }
    }

    const gc = new GcLog();
    gc.observe();
    const width = STAGES.length + 1;
    const marks = new Float64Array(opts.requests * width);
    // Staged and whole-route requests alternate, so both meet the same heap and the same machine.
    let stagedWall = 0;
    let routeWall = 0;
    const covered = new Float64Array(opts.requests);
    const threads0 = threadCpuSeconds(process.pid);
    for (let i = 0; i < opts.requests; i++) {
      const wall0 = performance.now();
      clock.start(marks, i * width);
      await request(observed, stagedBodies[i]!, route, metrics, clock);
      const wall1 = performance.now();
      await request(c, wholeBodies[i]!, route, metrics);
      stagedWall += wall1 - wall0;
      routeWall += performance.now() - wall1;
      covered[i] = (marks[i * width + width - 1]! - marks[i * width]!) / (wall1 - wall0);
    }
    const threads1 = threadCpuSeconds(process.pid);
    await gc.stop();

    // The main thread's CPU over the loop (/proc ticks of 10 ms; the loop takes seconds), shared
    // between the two halves by their wall time: per stage, wall time less the GC within it, scaled
    // by the main thread's CPU over wall. V8's helper threads are counted apart.
    const mainMs = (threads1.mainUser + threads1.mainSystem - threads0.mainUser - threads0.mainSystem) * 1000;
    const scale = mainMs / (stagedWall + routeWall);
    const stageMs = new Float64Array(STAGES.length);
    let gcMs = 0;
    for (let i = 0; i < opts.requests; i++) {
      for (let s = 0; s < STAGES.length; s++) {
        const from = marks[i * width + s]!;
        const to = marks[i * width + s + 1]!;
        const pause = gcWithin(gc, from, to);
        stageMs[s] = stageMs[s]! + to - from - pause;
        gcMs += pause;
      }
    }
    const perRequest = (ms: number) => ((ms * 1000) / opts.requests) * scale;
    const stagesUs = Array.from(stageMs, perRequest);
    const gcUs = perRequest(gcMs);
    return {
      events: (JSON.parse(Buffer.from(wholeBodies[0]!).toString()) as { events: RawEvent[] }).events.length,
      bodyBytes: wholeBodies[0]!.byteLength,
      requests: opts.requests,
      stagesUs,
      gcUs,
      sumUs: stagesUs.reduce((a, b) => a + b, 0) + gcUs,
      coveredShare: covered.sort()[covered.length >> 1]!,
      routeUs: (routeWall * scale * 1000) / opts.requests,
      helpersUs: ((threads1.others - threads0.others) * 1e6) / (2 * opts.requests),
    };
  } finally {
    await close();
  }
}

/** The stage table of one or more runs (columns per run), with each run's sum and whole route. */
export function stageRows(runs: { label: string; result: StageResult }[]): Section['rows'] {
  const col = (f: (r: StageResult) => number | undefined) => Object.fromEntries(runs.map(({ label, result }) => [label, f(result)]));
  return [
    ...STAGES.map((name, i) => ({ name, ...col((r) => r.stagesUs[i]) })),
    { name: 'garbage collection (pauses within the stages)', ...col((r) => r.gcUs) },
    { name: 'sum of the stages', ...col((r) => r.sumUs) },
    { name: "whole route unobserved - sum of the stages (the observer's own cost, noise)", ...col((r) => r.routeUs - r.sumUs) },
    { name: 'whole route in process (handler, promises), main thread', ...col((r) => r.routeUs) },
    { name: 'V8 helper threads (concurrent GC, compiler), in process', ...col((r) => r.helpersUs) },
    { name: 'sum / whole route', ...col((r) => r.sumUs / r.routeUs) },
  ];
}

/** `npm run bench -- --only stages`: the bench's bodies and 2,000-event ones, in this process. */
export async function runVerifyStagesBench(): Promise<Section> {
  const quick = process.env.BENCH_QUICK === '1';
  const bench = await measureVerifyStages({ requests: quick ? 1_000 : 3_000, warmUp: 2_000 });
  const long = await measureVerifyStages({ requests: quick ? 100 : 300, warmUp: quick ? 200 : 500, events: 2_000 });
  const label = (r: StageResult) => `µs/req, ${r.events} events (${Math.round(r.bodyBytes / 1024)} KB)`;
  return {
    name: '/verify stage by stage (in process, unpinned)',
    rows: stageRows([
      { label: label(bench), result: bench },
      { label: label(long), result: long },
    ]),
    notes: ['The HTTP section runs the same in a child pinned to the server core and puts it next to the measured route.'],
    detail: { bench, long },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const events = process.argv[2] === undefined ? undefined : Number(process.argv[2]);
  const requests = Number(process.env.STAGE_REQUESTS ?? (events === undefined ? 3_000 : 300));
  const warmUp = Number(process.env.STAGE_WARM_UP ?? (events === undefined ? 2_000 : 500));
  process.stdout.write(`${JSON.stringify(await measureVerifyStages({ requests, warmUp, ...(events === undefined ? {} : { events }) }))}\n`);
  process.exit(0);
}

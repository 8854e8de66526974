/**
 * Where one /verify's time goes, stage by stage: the core pipeline's own stage functions, called
 * in process in the order verifySubmission calls them, on the same kind of bodies the HTTP bench
 * sends (each a fresh challenge and key), after the same warm-up. The production path carries no
 * timer: this module times the calls from outside.
 *
 * Each stage's figure is its wall time per request, scaled by the run's CPU time over its wall
 * time (a process pinned to a core shared with other work is sometimes not running), with the
 * garbage collections that fell inside it taken out and shown as their own row. The whole route
 * is measured on other bodies of the same run, in process (body to answer, as the server runs
 * it: verifyRoute's handler and its promises): what it takes beyond the stages' sum is the glue
 * between them (promise hops, the route's objects).
 *
 * As a section of `npm run bench` (`--only stages`), or alone after `npm run build`:
 *   node --import tsx bench/verifyStages.ts [events]   (prints the result as JSON)
 * The HTTP section runs it in a child pinned to the server's core, with the server's heap flags.
 */
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { pino } from 'pino';
import { loadConfig, type Config } from '../src/config.js';
import type { CoreContext } from '../src/core/challenge/context.js';
import { authenticateChallengeId } from '../src/core/challenge/authenticateChallengeId.js';
import { challengeMaze } from '../src/core/challenge/challengeMaze.js';
import { derivedFromMac } from '../src/core/challenge/deriveChallenge.js';
import { type Challenge, issueChallenge } from '../src/core/challenge/issueChallenge.js';
import { replayTrace } from '../src/core/challenge/replayTrace.js';
import { issueSessionToken } from '../src/core/issueSessionToken.js';
import { checkCompletionTokens } from '../src/core/probe/checkCompletionTokens.js';
import { PROBE_ID } from '../src/core/probe/probeLayout.js';
import { scoringTables } from '../src/core/scoring/ScoringTable.js';
import { dispatchedEvents } from '../src/core/scoring/dispatchedEvents.js';
import { inferInputType } from '../src/core/scoring/inferInputType.js';
import { explainScore } from '../src/core/scoring/reasons/explainScore.js';
import { probeLogit, sigmoid, termContributions } from '../src/core/scoring/scoreFeatures.js';
import { admitSite } from '../src/core/sites/admitSite.js';
import { hostnameOf } from '../src/core/sites/Site.js';
import { sitePasskeys } from '../src/core/sites/sitePasskeys.js';
import { checkPow } from '../src/core/verify/checkPow.js';
import { checkSignature } from '../src/core/verify/checkSignature.js';
import { checkTraceTime } from '../src/core/verify/checkTraceTime.js';
import { checkWebAuthn } from '../src/core/verify/checkWebAuthn.js';
import { checkWebAuthnShape } from '../src/core/verify/checkWebAuthnShape.js';
import type { VerifyInput } from '../src/core/verify/verifySubmission.js';
import { eventsDigest } from '../src/core/verify/eventsDigest.js';
import { challengeJson } from '../src/http/challengeJson.js';
import { createServer } from '../src/http/createServer.js';
import { Metrics } from '../src/http/metrics.js';
import { parseJson } from '../src/http/parseJson.js';
import type { RequestInfo } from '../src/http/route.js';
import type { Store } from '../src/store/Store.js';
import { verifyRoute } from '../src/http/routes/verify.js';
import { compileSchemas } from '../src/http/schemas.js';
import { packEvents } from '../src/kernel/packEvents.js';
import type { RawEvent } from '../src/kernel/types.js';
import type { Section } from './run.js';
import { threadCpuSeconds } from './http/processes.js';
import { SECRET, SITE_KEY } from './http/bodies.js';

/** The stages of one /verify, in the order the server runs them (verifySubmission.ts). */
export const STAGES = [
  'body copy (uWS chunk to Buffer)',
  'JSON parse (UTF-8 text, JSON.parse, depth and surrogate walk)',
  'schema',
  'site and origin',
  'id authentication (and passkey shape)',
  'consume',
  'proof of work (and input type)',
  'time bound',
  'replay (maze, packing, walk)',
  'probe tokens',
  'events digest (JSON text and SHA-256)',
  'signature (import and verify)',
  'passkey',
  'features (kernel)',
  'fingerprints (duplicate lookup)',
  'scoring (terms, reasons)',
  'fingerprints (remember)',
  'logging (shadow score, level off)',
  'token',
  'answer (reply object, JSON text)',
  'metrics',
] as const;

export interface StageResult {
  events: number;
  bodyBytes: number;
  requests: number;
  /** µs per request, CPU-scaled, GC taken out; same order as STAGES. */
  stagesUs: number[];
  gcUs: number;
  /** The stages and GC summed. */
  sumUs: number;
  /** The whole route in process (body copy to answer text), main thread, µs per request. */
  routeUs: number;
  /** CPU of the process's other threads (V8's concurrent marking and sweeping, the compiler) per request, staged and whole alike. */
  helpersUs: number;
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

/** Wall ms of each stage of each request (n x stages), and the marks between them. */
type Marks = Float64Array;

/** Runs one body through the stages, writing performance.now() before each stage and after the last into `marks` at `at`. */
async function staged(ctx: CoreContext, body: ArrayBuffer, marks: Marks, at: number, metrics: Metrics): Promise<void> {
  const { config, kernel } = ctx;
  const info: RequestInfo = { origin: '', authorization: '', contentType: 'application/json', address: '127.0.0.1' };
  const schemas = schemasOf(config);
  let k = at;
  marks[k++] = performance.now();
  const bytes = Buffer.from(body);
  marks[k++] = performance.now();
  const parsed = parseJson(bytes);
  if (!parsed.ok) throw new Error(parsed.detail);
  marks[k++] = performance.now();
  if (!schemas.verify.Check(parsed.value)) throw new Error('schema');
  const input = parsed.value as VerifyInput;
  marks[k++] = performance.now();
  const admitted = admitSite(ctx.sites, input.site_key, info.origin);
  if (!admitted.ok) throw new Error(admitted.failure.code);
  const { site } = admitted;
  const { policy } = site;
  marks[k++] = performance.now();
  const now = ctx.now();
  const auth = authenticateChallengeId(ctx.challengeKeys, input.challenge_id, site, now, config, inferInputType(input.events) === 'keyboard');
  if (!auth.ok) throw new Error(auth.failure.code);
  const { challenge } = auth;
  const passkeys = sitePasskeys(ctx.passkeys, site);
  if (checkWebAuthnShape(passkeys, input.stable_id, input.webauthn) !== undefined) throw new Error('passkey shape');
  marks[k++] = performance.now();
  const consumed = await ctx.store.consume(`challenge:${challenge.id}`, { issuedAt: challenge.createdAt, expiresAt: challenge.spentUntil });
  if (consumed !== 'fresh') throw new Error(`consume: ${consumed}`);
  marks[k++] = performance.now();
  const derived = derivedFromMac(challenge.mac, policy.probeProbability);
  const inputType = inferInputType(input.events);
  const powNeeds = { powDifficulty: challenge.powDifficulty, powKeyboardExtraBits: config.powKeyboardExtraBits };
  if (checkPow(kernel, derived.powChallenge, input.pow_proof, powNeeds, inputType) !== undefined) throw new Error('pow');
  marks[k++] = performance.now();
  if (checkTraceTime(input.events, challenge.createdAt, now) !== undefined) throw new Error('time bound');
  marks[k++] = performance.now();
  const maze = challengeMaze(policy.maze, derived.seed);
  const packed = kernel.packEvents(input.events);
  const { replay, cellSize } = replayTrace(kernel, maze, packed, config.cellSize, { kind: 'verify' });
  if (!replay.valid) throw new Error('replay');
  marks[k++] = performance.now();
  const probeReactionsMs = derived.hasProbe
    ? checkCompletionTokens(ctx.ring, challenge.id, input.session_id, [PROBE_ID], input.probe_completion_tokens, ctx.now())
    : [];
  if (probeReactionsMs === undefined) throw new Error('probe');
  marks[k++] = performance.now();
  const text = `${challenge.id}:${input.site_key}:${challenge.expiresAt}:${eventsDigest(input.events)}`;
  marks[k++] = performance.now();
  if (!(await checkSignature(ctx.signatures, input.public_key, input.signature, [text]))) throw new Error('signature');
  marks[k++] = performance.now();
  const webauthn = await checkWebAuthn({ passkeys, challenge, siteKey: input.site_key, stableId: input.stable_id, assertion: input.webauthn });
  if (webauthn !== undefined) throw new Error(webauthn.code);
  marks[k++] = performance.now();
  const table = scoringTables[policy.scoring.table];
  const threshold = policy.scoring.threshold;
  const dispatched = dispatchedEvents(input.events);
  const featurePacked = dispatched === input.events ? packed : packEvents(dispatched);
  const scoredType = inferInputType(dispatched);
  const { values, shape } = kernel.features(maze, featurePacked, cellSize);
  marks[k++] = performance.now();
  const duplicate = await ctx.fingerprints.has(shape);
  marks[k++] = performance.now();
  const model = table.types[scoredType];
  const terms = termContributions(model, { kernel: values, keyboard: undefined });
  const probe = probeLogit(table, probeReactionsMs);
  const score = duplicate ? 0 : sigmoid(terms.reduce((sum, c) => sum + c, model.bias + probe));
  const reasons = score < threshold ? explainScore(model, { terms, probe, duplicate }) : [];
  marks[k++] = performance.now();
  if (!duplicate && score >= threshold) await ctx.fingerprints.remember(shape);
  marks[k++] = performance.now();
  ctx.log.info(
    { site_key: input.site_key, score, input_type: scoredType, duplicate, below_threshold: score < threshold, reasons },
    'shadow score',
  );
  marks[k++] = performance.now();
  const token = issueSessionToken(ctx.ring, {
    challengeId: challenge.id,
    sessionId: input.session_id,
    siteKey: input.site_key,
    score,
    reasons,
    inputType,
    hostname: hostnameOf(info.origin),
    ip: info.address,
    now: ctx.now(),
  });
  marks[k++] = performance.now();
  const answer = JSON.stringify({ status: 200, body: { success: true, token } }.body);
  if (answer.length === 0) throw new Error('answer');
  marks[k++] = performance.now();
  metrics.route('/verify').observe(200, marks[at]!, undefined);
  marks[k++] = performance.now();
}

let compiled: { config: Config; schemas: ReturnType<typeof compileSchemas> } | undefined;
function schemasOf(config: Config): ReturnType<typeof compileSchemas> {
  if (compiled?.config !== config) compiled = { config, schemas: compileSchemas(config.maxEvents) };
  return compiled.schemas;
}

/** The whole route in process, as the server runs it once the body is read: copy, parse, schema, handler, answer text, metrics. */
async function whole(ctx: CoreContext, body: ArrayBuffer, route: ReturnType<typeof verifyRoute>, metrics: Metrics): Promise<void> {
  const startedAt = performance.now();
  const parsed = parseJson(Buffer.from(body));
  if (!parsed.ok || !route.check.Check(parsed.value)) throw new Error('bad body');
  const reply = await route.handle(ctx, parsed.value as never, { origin: '', authorization: '', contentType: 'application/json', address: '127.0.0.1' });
  if (reply.status !== 200 || JSON.stringify(reply.body).length === 0) throw new Error(`answered ${reply.status} ${JSON.stringify(reply.body)}`);
  metrics.route('/verify').observe(reply.status, startedAt, reply.code);
}

/** The server's own context (its store, kernel, signature verifier, fingerprints) for the bench's settings, not listening. */
async function benchContext(opts: { now: () => number; store?: Store }): Promise<{ ctx: CoreContext; config: Config; close(): Promise<void> }> {
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

/** Runs bodies through the whole route in process (see whole), on a context of its own. */
export async function routeRunner(opts: { store: Store }): Promise<{ run(body: ArrayBuffer): Promise<void>; close(): Promise<void> }> {
  const { ctx, config, close } = await benchContext({ now: Date.now, store: opts.store });
  const route = verifyRoute(schemasOf(config));
  const metrics = new Metrics({});
  return { run: (body) => whole(ctx, body, route, metrics), close };
}

/** Sums the GC pauses starting within [from, to) ms. */
function gcWithin(gc: GcLog, from: number, to: number): number {
  let ms = 0;
  for (let i = 0; i < gc.starts.length; i++) if (gc.starts[i]! >= from && gc.starts[i]! < to) ms += gc.durations[i]!;
  return ms;
}

/**
 * Measures `requests` bodies stage by stage and `requests` more through the whole route, after
 * `warmUp` whole-route requests. `events`: events per trace (default: the test client's traces,
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
    for (const b of warm) await whole(c, b, route, metrics);
    for (const b of warm.slice(0, 200)) await staged(c, b.slice(0), new Float64Array(STAGES.length + 1), 0, metrics).catch(() => undefined);

    const gc = new GcLog();
    gc.observe();
    const width = STAGES.length + 1;
    const marks = new Float64Array(opts.requests * width);
    // Staged and whole-route requests alternate, so both meet the same heap and the same machine.
    let stagedWall = 0;
    let routeWall = 0;
    const threads0 = threadCpuSeconds(process.pid);
    for (let i = 0; i < opts.requests; i++) {
      const wall0 = performance.now();
      await staged(c, stagedBodies[i]!, marks, i * width, metrics);
      const wall1 = performance.now();
      await whole(c, wholeBodies[i]!, route, metrics);
      stagedWall += wall1 - wall0;
      routeWall += performance.now() - wall1;
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
    { name: "between the stages (promise hops, the route's objects): whole route - sum", ...col((r) => r.routeUs - r.sumUs) },
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

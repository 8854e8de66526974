/**
 * Per-route HTTP load run: the server as a child process, driven on loopback by wrk, next to the
 * two denominators it is judged against (a bare uWebSockets.js app answering the same body
 * sizes, and one-core node:crypto ECDSA P-256 import+verify). Writes bench/results/latest-http.json
 * and latest-http.md and flags regressions over 10% against bench/results/baseline.json.
 *
 * Runs inside `npm run bench`, or alone after `npm run build`:
 *   node --import tsx bench/http.ts
 * To make a run the reference, commit its report as bench/results/baseline.json.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type TestRedis, startRedis } from '../test/helpers/redisServer.js';
import { SECRET, SITE_KEY, postJson, siteverifyBodies, verifyBodies } from './http/bodies.js';
import { ecdsaImportVerifyPerSecond } from './http/ecdsa.js';
import { PIN, type Child, rssBytes, startBareApp, startServer } from './http/processes.js';
import { measureScaling, workersOf } from './http/scaling.js';
import { ROUNDS, RouteMeasurements } from './http/routeMeasurements.js';
import { WRK_CONNECTIONS, runWrk } from './http/wrk.js';
import type { Row, Section } from './run.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const resultsDir = join(repoRoot, 'bench', 'results');

/** Load sizes; BENCH_QUICK=1 shrinks them for a smoke run (its numbers are not comparable). */
const QUICK = process.env.BENCH_QUICK === '1';
const COUNTS = {
  challengeFlood: QUICK ? 50_000 : 1_000_000,
  ceiling: QUICK ? 50_000 : 300_000,
  verify: QUICK ? 2_000 : 20_000,
  siteverifyValid: QUICK ? 20_000 : 100_000,
  siteverifyInvalid: QUICK ? 20_000 : 200_000,
  /** Answers sent before a route is measured (RouteMeasurements.warmUp); a quick run measures only 2,000 /verify. */
  verifyWarmUp: 2_000,
  siteverifyWarmUp: QUICK ? 5_000 : 20_000,
};
const MiB = 1024 * 1024;
/** Threads of the whole-machine run (`--workers N`; default every core). */
const WORKERS = workersOf(process.argv);

export interface HttpBenchResult {
  date: string;
  quick: boolean;
  node: string;
  /** One-minute load average when the run started: other work on the machine skews every number. */
  loadAverage: number;
  /** Metric name -> value; higher is better for rates and ratios, lower for latencies and RSS. */
  metrics: Record<string, number>;
  targets: { name: string; value: number; target: string; pass: boolean }[];
  regressions: string[];
  errors: string[];
  section: Section;
}


const TARGETS: { name: string; metric: string; min?: number; max?: number; label: string }[] = [
  { name: '/challenge vs ceiling', metric: 'challenge_ratio', min: 0.4, label: '>= 40%' },
  { name: '/siteverify (valid) vs ceiling', metric: 'siteverify_valid_ratio', min: 0.6, label: '>= 60%' },
  { name: '/siteverify (invalid) vs ceiling', metric: 'siteverify_invalid_ratio', min: 0.6, label: '>= 60%' },
  { name: '/verify vs one-core ECDSA', metric: 'verify_ratio', min: 0.8, label: '>= 0.8x' },
  { name: '/siteverify (valid), Redis store vs memory store', metric: 'redis_siteverify_valid_ratio', min: 0.7, label: '>= 70%' },
  { name: '/verify, Redis store vs memory store', metric: 'redis_verify_ratio', min: 0.9, label: '>= 90%' },
  { name: 'RSS growth after /challenge flood', metric: 'rss_growth_mib', max: 50, label: '< 50 MiB' },
  // Per second of server CPU, the server pinned to one core (WORKERS=1).
  { name: '/challenge per CPU-second vs bare uWS', metric: 'challenge_cpu_ratio', min: 0.6, label: '>= 60%' },
  { name: '/siteverify (valid) per CPU-second vs bare uWS', metric: 'siteverify_valid_cpu_ratio', min: 0.6, label: '>= 60%' },
  { name: '/verify per CPU-second vs one-core ECDSA', metric: 'verify_cpu_ratio', min: 0.75, label: '>= 0.75x' },
  { name: '/siteverify (valid) per CPU-second, Redis store vs memory store', metric: 'redis_siteverify_valid_cpu_ratio', min: 0.7, label: '>= 70%' },
  { name: '/verify per CPU-second, Redis store vs memory store', metric: 'redis_verify_cpu_ratio', min: 0.9, label: '>= 90%' },
  { name: 'RSS peak through the per-route load, WORKERS=1', metric: 'rss_peak_mib', max: 150, label: '<= 150 MiB' },
  { name: '/verify whole machine, WORKERS=N vs N x WORKERS=1', metric: 'scaling_ratio', min: 0.8, label: '>= 80%' },
];

/** Metrics where a smaller value is better (the rest: larger is better). */
const lowerIsBetter = (metric: string) => /_p50_ms$|_p99_ms$|_cpu_us$|^rss_/.test(metric);

function compare(current: Record<string, number>, baseline: Record<string, number> | undefined): string[] {
  if (baseline === undefined) return [];
  const flagged: string[] = [];
  for (const [metric, now] of Object.entries(current)) {
    const before = baseline[metric];
    // The denominators measure the machine, CPU use and absolute RSS describe the run: only
    // the server's own numbers can regress.
    if (before === undefined || before === 0 || /^ceiling_|^ecdsa_|_cpu_pct$|^rss_(before|after)/.test(metric)) continue;
    const change = (now - before) / Math.abs(before);
    const worse = lowerIsBetter(metric) ? change > 0.1 : change < -0.1;
    // Sub-millisecond latencies and an RSS growth of a few MiB jitter by more than 10%.
    const noise = (metric.endsWith('_ms') && now < 1) || (metric === 'rss_growth_mib' && now - before < 5);
    if (worse && !noise) {
      flagged.push(`${metric}: ${fmt(before)} -> ${fmt(now)} (${change > 0 ? '+' : ''}${(change * 100).toFixed(1)}%)`);
    }
  }
  return flagged;
}

function fmt(v: number): string {
  return Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 1 ? v.toFixed(2) : v.toFixed(3);
}

const SECTION_NAME = 'HTTP (server child process, wrk on loopback)';

/**
 * The metrics of the last committed run, bench/results/baseline.json: either the report of
 * `npm run bench` (this section's detail) or this module's own JSON.
 */
function baselineMetrics(): Record<string, number> | undefined {
  const file = join(resultsDir, 'baseline.json');
  if (!existsSync(file)) return undefined;
  const json = JSON.parse(readFileSync(file, 'utf8')) as {
    metrics?: Record<string, number>;
    sections?: { name: string; detail?: { metrics?: Record<string, number> } }[];
  };
  return json.metrics ?? json.sections?.find((s) => s.name === SECTION_NAME)?.detail?.metrics;
}

function sectionRows(m: Record<string, number>): Row[] {
  const route = (name: string, key: string, requests: number, denominator: number | undefined, ratio: number | undefined): Row => ({
    name,
    requests,
    'req/s': m[`${key}_rps`],
    'p50 ms': m[`${key}_p50_ms`],
    'p99 ms': m[`${key}_p99_ms`],
    'server CPU %': m[`${key}_cpu_pct`],
    'wrk CPU %': m[`${key}_wrk_cpu_pct`],
    'CPU us/req': m[`${key}_cpu_us`],
    'req/CPU-s': m[`${key}_per_cpu_s`],
    denominator,
    ratio,
    'ratio per CPU-s': m[`${key}_cpu_ratio`],
  });
  return [
    route('POST /challenge', 'challenge', COUNTS.challengeFlood, m.ceiling_challenge_rps, m.challenge_ratio),
    route('POST /verify (valid, each a fresh challenge)', 'verify', COUNTS.verify, m.ecdsa_import_verify_per_s, m.verify_ratio),
    route('POST /siteverify (valid, each once)', 'siteverify_valid', COUNTS.siteverifyValid, m.ceiling_siteverify_valid_rps, m.siteverify_valid_ratio),
    route('POST /siteverify (bad MAC)', 'siteverify_invalid', COUNTS.siteverifyInvalid, m.ceiling_siteverify_invalid_rps, m.siteverify_invalid_ratio),
    route('POST /verify signed with the interface.md text (a second check)', 'verify_plain', COUNTS.verify, undefined, undefined),
    { name: 'the second check: CPU us/req more than /verify', 'CPU us/req': m.verify_plain_extra_cpu_us },
    route('POST /verify, STORE=redis (ratio to memory)', 'redis_verify', COUNTS.verify, m.verify_rps, m.redis_verify_ratio),
    route('POST /siteverify (valid), STORE=redis (ratio to memory)', 'redis_siteverify_valid', COUNTS.siteverifyValid, m.siteverify_valid_rps, m.redis_siteverify_valid_ratio),
    route('ceiling: bare uWS, /challenge sizes', 'ceiling_challenge', COUNTS.ceiling, undefined, undefined),
    route('ceiling: bare uWS, /verify sizes', 'ceiling_verify', COUNTS.ceiling, undefined, undefined),
    route('ceiling: bare uWS, /siteverify valid sizes', 'ceiling_siteverify_valid', COUNTS.ceiling, undefined, undefined),
    route('ceiling: bare uWS, /siteverify invalid sizes', 'ceiling_siteverify_invalid', COUNTS.ceiling, undefined, undefined),
    { name: 'node:crypto ECDSA P-256 JWK import+verify, one core', 'req/s': m.ecdsa_import_verify_per_s, 'req/CPU-s': m.ecdsa_import_verify_per_cpu_s },
    { name: `RSS MiB before / after ${COUNTS.challengeFlood} /challenge`, before: m.rss_before_mib, after: m.rss_after_mib, growth: m.rss_growth_mib },
    { name: 'RSS MiB peak through the per-route load (WORKERS=1)', after: m.rss_peak_mib },
    { name: 'POST /verify, whole machine, WORKERS=1', 'req/s': m.scaling_verify_rps_1, 'server CPU %': m.scaling_verify_cpu_pct_1, 'wrk CPU %': m.scaling_wrk_cpu_pct_1, 'CPU us/req': m.scaling_verify_cpu_us_1 },
    {
      name: `POST /verify, whole machine, WORKERS=${m.scaling_workers ?? WORKERS} (ratio to N x WORKERS=1)`,
      'req/s': m.scaling_verify_rps_n,
      'server CPU %': m.scaling_verify_cpu_pct_n,
      'wrk CPU %': m.scaling_wrk_cpu_pct_n,
      'CPU us/req': m.scaling_verify_cpu_us_n,
      ratio: m.scaling_ratio,
    },
  ];
}

function markdown(r: HttpBenchResult): string {
  const m = r.metrics;
  const cpuRatio = (v: number | undefined) => (v === undefined ? '' : `${fmt(v)}`);
  const lines = [
    `# HTTP benchmark, ${r.date}${r.quick ? ' (quick run: not comparable)' : ''}`,
    '',
    `Node ${r.node}, ${cpus().length} cores (load average ${r.loadAverage.toFixed(2)} at the start); server and wrk (1 thread, ${WRK_CONNECTIONS} connections) on loopback${PIN.server.length > 0 ? ', the server (WORKERS=1) and the bare app pinned to core 0, wrk and redis-server to core 1' : ', not pinned (one core or no taskset)'}.`,
    '',
    '| route | requests | req/s | p50 ms | p99 ms | server CPU | wrk CPU | server CPU µs/req | req per CPU-s | denominator | ratio | ratio per CPU-s |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const row = (label: string, key: string, count: number, denom: string, ratio: number | undefined) =>
    lines.push(
      `| ${label} | ${count} | ${fmt(m[`${key}_rps`] ?? 0)} | ${fmt(m[`${key}_p50_ms`] ?? 0)} | ${fmt(m[`${key}_p99_ms`] ?? 0)} | ${fmt(m[`${key}_cpu_pct`] ?? 0)}% | ${fmt(m[`${key}_wrk_cpu_pct`] ?? 0)}% | ${fmt(m[`${key}_cpu_us`] ?? 0)} | ${fmt(m[`${key}_per_cpu_s`] ?? 0)} | ${denom} | ${ratio === undefined ? '' : `${(ratio * 100).toFixed(0)}%`} | ${cpuRatio(m[`${key}_cpu_ratio`])} |`,
    );
  row('POST /challenge', 'challenge', COUNTS.challengeFlood, `${fmt(m.ceiling_challenge_rps ?? 0)} req/s bare uWS`, m.challenge_ratio);
  row('POST /verify (valid, fresh challenge each)', 'verify', COUNTS.verify, `${fmt(m.ecdsa_import_verify_per_s ?? 0)} ECDSA/s (${fmt(m.ecdsa_import_verify_per_cpu_s ?? 0)} per CPU-s)`, m.verify_ratio);
  row('POST /siteverify (valid, each once)', 'siteverify_valid', COUNTS.siteverifyValid, `${fmt(m.ceiling_siteverify_valid_rps ?? 0)} req/s bare uWS`, m.siteverify_valid_ratio);
  row('POST /siteverify (bad MAC)', 'siteverify_invalid', COUNTS.siteverifyInvalid, `${fmt(m.ceiling_siteverify_invalid_rps ?? 0)} req/s bare uWS`, m.siteverify_invalid_ratio);
  row('POST /verify, interface.md text (second check)', 'verify_plain', COUNTS.verify, `+${fmt(m.verify_plain_extra_cpu_us ?? 0)} µs CPU/req`, undefined);
  row('POST /verify, STORE=redis', 'redis_verify', COUNTS.verify, `${fmt(m.verify_rps ?? 0)} req/s memory store`, m.redis_verify_ratio);
  row('POST /siteverify (valid), STORE=redis', 'redis_siteverify_valid', COUNTS.siteverifyValid, `${fmt(m.siteverify_valid_rps ?? 0)} req/s memory store`, m.redis_siteverify_valid_ratio);
  for (const key of ['challenge', 'verify', 'siteverify_valid', 'siteverify_invalid']) {
    if (m[`ceiling_${key}_rps`] !== undefined) row(`ceiling: bare uWS, ${key} sizes`, `ceiling_${key}`, COUNTS.ceiling, '', undefined);
  }
  if (m.scaling_ratio !== undefined) {
    lines.push(
      '',
      `Whole machine, nothing pinned, /verify: WORKERS=1 ${fmt(m.scaling_verify_rps_1 ?? 0)} req/s (server CPU ${fmt(m.scaling_verify_cpu_pct_1 ?? 0)}%, ${fmt(m.scaling_verify_cpu_us_1 ?? 0)} µs/req; wrk ${fmt(m.scaling_wrk_cpu_pct_1 ?? 0)}%), ` +
        `WORKERS=${m.scaling_workers} ${fmt(m.scaling_verify_rps_n ?? 0)} req/s (server CPU ${fmt(m.scaling_verify_cpu_pct_n ?? 0)}%, ${fmt(m.scaling_verify_cpu_us_n ?? 0)} µs/req; wrk ${fmt(m.scaling_wrk_cpu_pct_n ?? 0)}%): ${(m.scaling_ratio * 100).toFixed(0)}% of ${m.scaling_workers} x the one-thread rate.`,
    );
  }
  lines.push(`RSS peak through the per-route load (WORKERS=1): ${fmt(m.rss_peak_mib ?? 0)} MiB.`);
  lines.push(`/siteverify (valid) and /verify: the memory-store and Redis-store servers driven in turns, ${ROUNDS} rounds each (A B A B ...), each round a share of the same bodies.`);
  lines.push(
    '',
    `RSS before/after ${COUNTS.challengeFlood} /challenge: ${fmt(m.rss_before_mib ?? 0)} MiB -> ${fmt(m.rss_after_mib ?? 0)} MiB (growth ${fmt(m.rss_growth_mib ?? 0)} MiB).`,
    '',
    '| target | value | goal | met |',
    '|---|---:|---|---|',
    ...r.targets.map((t) => `| ${t.name} | ${t.name.startsWith('RSS') ? `${fmt(t.value)} MiB` : t.name.includes('ECDSA') ? `${fmt(t.value)}x` : `${(t.value * 100).toFixed(0)}%`} | ${t.target} | ${t.pass ? 'yes' : '**no**'} |`),
    '',
    r.regressions.length === 0 ? 'No regression over 10% against the baseline (or no baseline).' : `Regressions over 10% against the baseline:\n${r.regressions.map((x) => `- ${x}`).join('\n')}`,
  );
  if (r.errors.length > 0) lines.push('', 'Unexpected answers:', ...r.errors.map((e) => `- ${e}`));
  return `${lines.join('\n')}\n`;
}

export async function runHttpBench(): Promise<HttpBenchResult> {
  const work = mkdtempSync(join(tmpdir(), 'ariadne-bench-'));
  const metrics: Record<string, number> = {};
  const errors: string[] = [];
  const loadAverage = loadavg()[0] as number;
  const measurements = new RouteMeasurements(work, metrics, errors);
  /** Per route: one request body and the size of the answer, for the ceiling app to match. */
  const sizes: Record<string, { request: string; response: number }> = {};
  const sample = async (key: string, url: string, body: string, expectText: string) => {
    const r = await postJson(url, JSON.parse(body));
    if (r.status !== 200 || !r.text.includes(expectText)) throw new Error(`${key} sample answered ${r.status}: ${r.text}`);
    sizes[key] = { request: body, response: Buffer.byteLength(r.text) };
  };
  let server: Child | undefined;
  let bare: Child | undefined;
  /**
   * The same server on STORE=redis (a redis-server of its own, no persistence, on the load
   * generator's core), measured right after the memory one.
   */
  let redis: TestRedis | undefined;
  let redisServer: Child | undefined;
  /**
   * Denominator 1, the HTTP ceiling for a route's request and response sizes, measured right
   * before the route itself: on a shared machine the speed of the cores drifts, and a
   * denominator taken minutes apart would skew the ratio.
   */
  const ceiling = async (key: string) => {
    const s = sizes[key]!;
    bare = await startBareApp({ [`/${key}`]: s.response });
    await measurements.measure(`ceiling_${key}`, bare, { path: `/${key}`, bodies: [s.request], count: COUNTS.ceiling, expectText: '"success":true' });
    await bare.stop();
    bare = undefined;
  };
  try {
    server = await startServer();
    const url = server.url;
    // On the load generator's core: the server's core and CPU time stay its own.
    redis = await startRedis({ launcher: PIN.generator });
    redisServer = await startServer({ STORE: 'redis', REDIS_URL: redis.url });

    // /challenge: warm up, then the flood of 1M, RSS before and after.
    const challengeBody = JSON.stringify({ site_key: SITE_KEY });
    await sample('challenge', `${url}/challenge`, challengeBody, '"pow_challenge"');
    await ceiling('challenge');
    const challengeLoad = { path: '/challenge', bodies: [challengeBody], expectText: '"pow_challenge"' };
    await runWrk(work, { ...challengeLoad, url, count: 20_000, expectStatus: 200 });
    const rssBefore = rssBytes(server.proc.pid as number);
    await measurements.measure('challenge', server, { ...challengeLoad, count: COUNTS.challengeFlood });
    const rssAfter = rssBytes(server.proc.pid as number);
    metrics.rss_before_mib = rssBefore / MiB;
    metrics.rss_after_mib = rssAfter / MiB;
    metrics.rss_growth_mib = (rssAfter - rssBefore) / MiB;

    // /siteverify with tokens that fail their MAC (answered 200, success false).
    const invalid = siteverifyBodies(1_000, Date.now(), 'not-the-server-secret-0123456789abcdef');
    await sample('siteverify_invalid', `${url}/siteverify`, invalid[0] as string, '"invalid_token"');
    await ceiling('siteverify_invalid');
    await measurements.measure('siteverify_invalid', server, { path: '/siteverify', bodies: invalid, count: COUNTS.siteverifyInvalid, expectText: '"invalid_token"' });

    // /siteverify with valid tokens, each redeemed once (minted here with the server's secret).
    // The same tokens then go to the Redis-backed server (its own store: each is fresh there).
    const valid = siteverifyBodies(COUNTS.siteverifyValid + 2, Date.now(), SECRET);
    await sample('siteverify_valid', `${url}/siteverify`, valid.pop() as string, '"success":true');
    await sample('redis_siteverify_valid', `${redisServer.url}/siteverify`, valid.pop() as string, '"success":true');
    await ceiling('siteverify_valid');
    // The memory-store server is warm from the forged tokens, the Redis-store one has served one
    // request so far: a run each first, not measured, so the rounds compare two warm servers.
    await measurements.warmUp('/siteverify', siteverifyBodies(COUNTS.siteverifyWarmUp, Date.now(), SECRET), [url, redisServer.url]);
    await measurements.measureInTurns(
      [
        { key: 'siteverify_valid', child: server },
        { key: 'redis_siteverify_valid', child: redisServer },
      ],
      { path: '/siteverify', bodies: valid, expectText: '"success":true' },
    );

    // /verify with valid submissions, each consuming its own challenge. Denominator 2 is
    // measured just before and just after it (the mean), for the same reason as the ceilings.
    try {
      // Challenges verify on any server holding the secret: the same bodies go to both.
      const bodies = await verifyBodies(url, COUNTS.verify + 2 + COUNTS.verifyWarmUp);
      await sample('verify', `${url}/verify`, bodies.pop() as string, '"success":true');
      await sample('redis_verify', `${redisServer.url}/verify`, bodies.pop() as string, '"success":true');
      await ceiling('verify');
      await measurements.warmUp('/verify', bodies.splice(0, COUNTS.verifyWarmUp), [url, redisServer.url]);
      const before = ecdsaImportVerifyPerSecond();
      await measurements.measureInTurns(
        [
          { key: 'verify', child: server },
          { key: 'redis_verify', child: redisServer },
        ],
        { path: '/verify', bodies, expectText: '"success":true' },
      );
      const after = ecdsaImportVerifyPerSecond();
      metrics.ecdsa_import_verify_per_s = (before.perSecond + after.perSecond) / 2;
      metrics.ecdsa_import_verify_per_cpu_s = (before.perCpuSecond + after.perCpuSecond) / 2;
      // Signed with interface.md's text: the deployed widget's text is tried first and fails,
      // so each costs one more signature check (the key is imported once).
      const plain = await verifyBodies(url, COUNTS.verify, 'plain');
      await measurements.measure('verify_plain', server, { path: '/verify', bodies: plain, count: plain.length, expectText: '"success":true' });
      metrics.verify_plain_extra_cpu_us = metrics.verify_plain_cpu_us! - metrics.verify_cpu_us!;
    } catch (e) {
      errors.push(`/verify not measured: ${(e as Error).message}`);
    }
    try {
      Object.assign(metrics, await measureScaling(work, WORKERS, COUNTS.verify));
    } catch (e) {
      errors.push(`whole-machine /verify not measured: ${(e as Error).message}`);
    }
  } finally {
    if (server !== undefined) metrics.rss_peak_mib = rssBytes(server.proc.pid as number, true) / MiB;
    await server?.stop();
    await redisServer?.stop();
    await redis?.close();
    await bare?.stop();
    rmSync(work, { recursive: true, force: true });
  }

  const ratio = (a: string, b: string) => {
    const x = metrics[a];
    const y = metrics[b];
    if (x !== undefined && y !== undefined && y > 0) return x / y;
    return undefined;
  };
  const ratios: Record<string, number | undefined> = {
    challenge_ratio: ratio('challenge_rps', 'ceiling_challenge_rps'),
    siteverify_valid_ratio: ratio('siteverify_valid_rps', 'ceiling_siteverify_valid_rps'),
    siteverify_invalid_ratio: ratio('siteverify_invalid_rps', 'ceiling_siteverify_invalid_rps'),
    verify_ratio: ratio('verify_rps', 'ecdsa_import_verify_per_s'),
    redis_siteverify_valid_ratio: ratio('redis_siteverify_valid_rps', 'siteverify_valid_rps'),
    redis_verify_ratio: ratio('redis_verify_rps', 'verify_rps'),
    challenge_cpu_ratio: ratio('challenge_per_cpu_s', 'ceiling_challenge_per_cpu_s'),
    siteverify_valid_cpu_ratio: ratio('siteverify_valid_per_cpu_s', 'ceiling_siteverify_valid_per_cpu_s'),
    siteverify_invalid_cpu_ratio: ratio('siteverify_invalid_per_cpu_s', 'ceiling_siteverify_invalid_per_cpu_s'),
    verify_cpu_ratio: ratio('verify_per_cpu_s', 'ecdsa_import_verify_per_cpu_s'),
    redis_siteverify_valid_cpu_ratio: ratio('redis_siteverify_valid_per_cpu_s', 'siteverify_valid_per_cpu_s'),
    redis_verify_cpu_ratio: ratio('redis_verify_per_cpu_s', 'verify_per_cpu_s'),
  };
  for (const [k, v] of Object.entries(ratios)) if (v !== undefined) metrics[k] = v;
  const targets = TARGETS.filter((t) => metrics[t.metric] !== undefined).map((t) => {
    const value = metrics[t.metric] as number;
    const pass = (t.min === undefined || value >= t.min) && (t.max === undefined || value < t.max);
    return { name: t.name, value, target: t.label, pass };
  });

  const baseline = baselineMetrics();
  const result: HttpBenchResult = {
    date: new Date().toISOString(),
    quick: QUICK,
    node: process.version,
    loadAverage,
    metrics,
    targets,
    regressions: QUICK ? [] : compare(metrics, baseline),
    errors,
    section: { name: SECTION_NAME, rows: [] },
  };
  result.section.rows = sectionRows(metrics);
  result.section.notes = [
    ...targets.map((t) => `target ${t.name} ${t.target}: ${t.pass ? 'met' : 'MISSED'} (${fmt(t.value)})`),
    ...result.regressions.map((r) => `regression over 10%: ${r}`),
    ...errors.map((e) => `unexpected: ${e}`),
  ];
  mkdirSync(resultsDir, { recursive: true });
  const { section: _section, ...plain } = result;
  writeFileSync(join(resultsDir, 'latest-http.json'), `${JSON.stringify(plain, null, 2)}\n`);
  writeFileSync(join(resultsDir, 'latest-http.md'), markdown(result));
  return result;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(markdown(await runHttpBench()));
}

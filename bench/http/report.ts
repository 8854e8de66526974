/**
 * What a run of the HTTP bench reports: the ratios derived from its raw metrics, the targets they
 * are judged against, regressions against the committed baseline, and the table and Markdown
 * that show them.
 */
import { existsSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import type { Row, Section } from '../section.js';
import { PIN } from './processes.js';
import { ROUNDS } from './routeMeasurements.js';
import { WRK_CONNECTIONS } from './wrk.js';
import { STAGES, type StageResult, stageRows } from '../verifyStages.js';
import type { VerifyStages } from './stagesChild.js';

/** Requests sent per measured route, as the run chose them (a quick run sends fewer). */
export interface RequestCounts {
  challengeFlood: number;
  ceiling: number;
  verify: number;
  siteverifyValid: number;
  siteverifyInvalid: number;
}

/** One run of the HTTP bench, as written to bench/results/latest-http.json (without `section`). */
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
  /** /verify stage by stage (bench/verifyStages.ts), when it was measured. */
  stages?: VerifyStages | undefined;
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
  { name: '/challenge per CPU-second vs its floor', metric: 'challenge_floor_cpu_ratio', min: 0.85, label: '>= 85%' },
  { name: '/siteverify (valid) per CPU-second vs its floor', metric: 'siteverify_valid_floor_cpu_ratio', min: 0.8, label: '>= 80%' },
  { name: '/verify per CPU-second vs one-core ECDSA', metric: 'verify_cpu_ratio', min: 0.5, label: '>= 0.5x' },
  {
    name: '/siteverify (valid) per CPU-second, Redis store vs memory store',
    metric: 'redis_siteverify_valid_cpu_ratio',
    min: 0.7,
    label: '>= 70%',
  },
  { name: '/verify per CPU-second, Redis store vs memory store', metric: 'redis_verify_cpu_ratio', min: 0.9, label: '>= 90%' },
  // The issue's 150 MB, in the MiB the bench reports.
  { name: 'RSS peak through the per-route load, WORKERS=1', metric: 'rss_peak_mib', max: 150e6 / 2 ** 20, label: '<= 150 MB (143 MiB)' },
  { name: '/verify whole machine, WORKERS=N vs N x WORKERS=1', metric: 'scaling_ratio', min: 0.8, label: '>= 80%' },
];

/**
 * Metrics where a smaller value is better (the rest: larger is better); the whole-machine run's
 * carry the thread count after them (`scaling_verify_cpu_us_1`, `_n`).
 */
const lowerIsBetter = (metric: string) => /_p50_ms$|_p99_ms$|_cpu_us(_1|_n)?$|^rss_/.test(metric);

function compare(current: Record<string, number>, baseline: Record<string, number> | undefined): string[] {
  if (baseline === undefined) return [];
  const flagged: string[] = [];
  for (const [metric, now] of Object.entries(current)) {
    const before = baseline[metric];
    // The denominators measure the machine, CPU use and absolute RSS describe the run: only
    // the server's own numbers can regress.
    if (before === undefined || before === 0 || /^ceiling_|^floor_|^ecdsa_|_cpu_pct(_1|_n)?$|^rss_(before|after)/.test(metric)) continue;
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
export function baselineMetrics(resultsDir: string): Record<string, number> | undefined {
  const file = join(resultsDir, 'baseline.json');
  if (!existsSync(file)) return undefined;
  const json = JSON.parse(readFileSync(file, 'utf8')) as {
    metrics?: Record<string, number>;
    sections?: { name: string; detail?: { metrics?: Record<string, number> } }[];
  };
  return json.metrics ?? json.sections?.find((s) => s.name === SECTION_NAME)?.detail?.metrics;
}

function sectionRows(m: Record<string, number>, counts: RequestCounts): Row[] {
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
    route('POST /challenge', 'challenge', counts.challengeFlood, m.ceiling_challenge_rps, m.challenge_ratio),
    route('POST /verify (valid, each a fresh challenge)', 'verify', counts.verify, m.ecdsa_import_verify_per_s, m.verify_ratio),
    route(
      'POST /siteverify (valid, each once)',
      'siteverify_valid',
      counts.siteverifyValid,
      m.ceiling_siteverify_valid_rps,
      m.siteverify_valid_ratio,
    ),
    route(
      'POST /siteverify (bad MAC)',
      'siteverify_invalid',
      counts.siteverifyInvalid,
      m.ceiling_siteverify_invalid_rps,
      m.siteverify_invalid_ratio,
    ),
    route('POST /verify signed with the interface.md text (a second check)', 'verify_plain', counts.verify, undefined, undefined),
    { name: 'the second check: CPU us/req more than /verify', 'CPU us/req': m.verify_plain_extra_cpu_us },
    route('POST /verify, STORE=redis (ratio to memory)', 'redis_verify', counts.verify, m.verify_rps, m.redis_verify_ratio),
    route(
      'POST /siteverify (valid), STORE=redis (ratio to memory)',
      'redis_siteverify_valid',
      counts.siteverifyValid,
      m.siteverify_valid_rps,
      m.redis_siteverify_valid_ratio,
    ),
    route('ceiling: bare uWS, /challenge sizes', 'ceiling_challenge', counts.ceiling, undefined, undefined),
    route('ceiling: bare uWS, /verify sizes', 'ceiling_verify', counts.ceiling, undefined, undefined),
    route('ceiling: bare uWS, /siteverify valid sizes', 'ceiling_siteverify_valid', counts.ceiling, undefined, undefined),
    route('ceiling: bare uWS, /siteverify invalid sizes', 'ceiling_siteverify_invalid', counts.ceiling, undefined, undefined),
    route('floor of /challenge (ratio per CPU-s: to its ceiling)', 'floor_challenge', counts.ceiling, undefined, undefined),
    route('floor of /siteverify valid (ratio per CPU-s: to its ceiling)', 'floor_siteverify_valid', counts.ceiling, undefined, undefined),
    { name: 'POST /challenge per CPU-s, ratio to its floor', ratio: m.challenge_floor_cpu_ratio },
    { name: 'POST /siteverify (valid) per CPU-s, ratio to its floor', ratio: m.siteverify_valid_floor_cpu_ratio },
    route('floor of /verify (ratio per CPU-s: to one-core ECDSA)', 'floor_verify', counts.verify, undefined, undefined),
    { name: 'POST /verify per CPU-s, ratio to its floor', ratio: m.verify_floor_cpu_ratio },
    {
      name: 'node:crypto ECDSA P-256 JWK import+verify, one core',
      'req/s': m.ecdsa_import_verify_per_s,
      'req/CPU-s': m.ecdsa_import_verify_per_cpu_s,
    },
    {
      name: `RSS MiB before / after ${counts.challengeFlood} /challenge`,
      before: m.rss_before_mib,
      after: m.rss_after_mib,
      growth: m.rss_growth_mib,
    },
    { name: 'RSS MiB peak through the per-route load (WORKERS=1)', after: m.rss_peak_mib },
    {
      name: 'POST /verify, whole machine, WORKERS=1',
      'req/s': m.scaling_verify_rps_1,
      'server CPU %': m.scaling_verify_cpu_pct_1,
      'wrk CPU %': m.scaling_wrk_cpu_pct_1,
      'CPU us/req': m.scaling_verify_cpu_us_1,
    },
    {
      name: `POST /verify, whole machine, WORKERS=${m.scaling_workers ?? 'N'} (ratio to N x WORKERS=1)`,
      'req/s': m.scaling_verify_rps_n,
      'server CPU %': m.scaling_verify_cpu_pct_n,
      'wrk CPU %': m.scaling_wrk_cpu_pct_n,
      'CPU us/req': m.scaling_verify_cpu_us_n,
      ratio: m.scaling_ratio,
    },
  ];
}

const stageLabel = (r: StageResult) => `µs/req, ${r.events.toLocaleString('en-US')} events (${Math.round(r.bodyBytes / 1024)} KB)`;

/**
 * The stage table's closing rows at the bench's sizes: what the server's measured CPU per /verify
 * holds beyond the stages (uWebSockets.js and the kernel's TCP work, as the bare app at these sizes
 * costs them), and how much of it the stages and the bare app account for.
 */
function accountRows(b: StageResult, m: Record<string, number>): { name: string; value: number | undefined }[] {
  const bare = m.ceiling_verify_cpu_us;
  const measured = m.verify_cpu_us;
  const helpers = m.verify_helpers_us;
  const accounted = bare === undefined || helpers === undefined ? undefined : b.routeUs + bare + helpers;
  return [
    { name: 'server, main thread, user time (JavaScript, uWS, OpenSSL, GC pauses)', value: m.verify_main_user_us },
    { name: 'server, main thread, system time (sockets, epoll)', value: m.verify_main_system_us },
    { name: 'server, V8 helper threads (concurrent GC, compiler)', value: helpers },
    { name: 'server, GC pauses (its /metrics; within the main thread above)', value: m.verify_gc_us },
    { name: "uWebSockets.js and the kernel's TCP work (the bare app at these sizes, same run)", value: bare },
    { name: 'whole route in process + bare app + server helper threads', value: accounted },
    { name: 'measured: server CPU per /verify (wrk, pinned)', value: measured },
    {
      name: 'not accounted for (measured - the line above)',
      value: accounted === undefined || measured === undefined ? undefined : measured - accounted,
    },
    { name: 'accounted / measured', value: accounted === undefined || measured === undefined ? undefined : accounted / measured },
  ];
}

function stageSectionRows(stages: VerifyStages, m: Record<string, number>): Row[] {
  return [
    ...stageRows([
      { label: stageLabel(stages.bench), result: stages.bench },
      { label: stageLabel(stages.long), result: stages.long },
    ]),
    ...accountRows(stages.bench, m).map(({ name, value }) => ({ name, [stageLabel(stages.bench)]: value })),
  ];
}

/** The stage table in Markdown (bench sizes and 2,000 events side by side). */
function stageMarkdown(stages: VerifyStages, m: Record<string, number>): string[] {
  const { bench, long } = stages;
  const cell = (v: number | undefined) => (v === undefined ? '' : fmt(v));
  const row = (name: string, a: number | undefined, b: number | undefined) => `| ${name} | ${cell(a)} | ${cell(b)} |`;
  return [
    '',
    `/verify stage by stage (bench/verifyStages.ts: the route in process, its stages as verifySubmission reports them, in a child pinned to the server's core with its heap flags, ${bench.requests} and ${long.requests} requests after a warm-up; wall time scaled by the main thread's CPU/wall, garbage collection pauses apart):`,
    '',
    `| stage | ${stageLabel(bench)} | ${stageLabel(long)} |`,
    '|---|---:|---:|',
    ...STAGES.map((name, i) => row(name, bench.stagesUs[i], long.stagesUs[i])),
    row('garbage collection (pauses within the stages)', bench.gcUs, long.gcUs),
    row('**sum of the stages**', bench.sumUs, long.sumUs),
    row(
      "whole route unobserved - sum of the stages (the observer's own cost, noise)",
      bench.routeUs - bench.sumUs,
      long.routeUs - long.sumUs,
    ),
    row('whole route in process (handler and its promises), main thread', bench.routeUs, long.routeUs),
    row('V8 helper threads in process (concurrent GC, compiler)', bench.helpersUs, long.helpersUs),
    row('sum / whole route in process', bench.sumUs / bench.routeUs, long.sumUs / long.routeUs),
    ...accountRows(bench, m).map(({ name, value }) => row(name, value, undefined)),
  ];
}

/** The run as Markdown: the route table, the whole-machine figures and the targets. */
export function markdown(r: HttpBenchResult, counts: RequestCounts): string {
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
  row('POST /challenge', 'challenge', counts.challengeFlood, `${fmt(m.ceiling_challenge_rps ?? 0)} req/s bare uWS`, m.challenge_ratio);
  row(
    'POST /verify (valid, fresh challenge each)',
    'verify',
    counts.verify,
    `${fmt(m.ecdsa_import_verify_per_s ?? 0)} ECDSA/s (${fmt(m.ecdsa_import_verify_per_cpu_s ?? 0)} per CPU-s)`,
    m.verify_ratio,
  );
  row(
    'POST /siteverify (valid, each once)',
    'siteverify_valid',
    counts.siteverifyValid,
    `${fmt(m.ceiling_siteverify_valid_rps ?? 0)} req/s bare uWS`,
    m.siteverify_valid_ratio,
  );
  row(
    'POST /siteverify (bad MAC)',
    'siteverify_invalid',
    counts.siteverifyInvalid,
    `${fmt(m.ceiling_siteverify_invalid_rps ?? 0)} req/s bare uWS`,
    m.siteverify_invalid_ratio,
  );
  row(
    'POST /verify, interface.md text (second check)',
    'verify_plain',
    counts.verify,
    `+${fmt(m.verify_plain_extra_cpu_us ?? 0)} µs CPU/req`,
    undefined,
  );
  row('POST /verify, STORE=redis', 'redis_verify', counts.verify, `${fmt(m.verify_rps ?? 0)} req/s memory store`, m.redis_verify_ratio);
  row(
    'POST /siteverify (valid), STORE=redis',
    'redis_siteverify_valid',
    counts.siteverifyValid,
    `${fmt(m.siteverify_valid_rps ?? 0)} req/s memory store`,
    m.redis_siteverify_valid_ratio,
  );
  for (const key of ['challenge', 'verify', 'siteverify_valid', 'siteverify_invalid']) {
    if (m[`ceiling_${key}_rps`] !== undefined) row(`ceiling: bare uWS, ${key} sizes`, `ceiling_${key}`, counts.ceiling, '', undefined);
  }
  for (const key of ['challenge', 'siteverify_valid']) {
    if (m[`floor_${key}_rps`] !== undefined)
      row(`floor of ${key} (bare uWS + what any answer costs)`, `floor_${key}`, counts.ceiling, 'its ceiling', undefined);
  }
  if (m.floor_verify_rps !== undefined)
    row('floor of verify (bare uWS + what any answer costs)', 'floor_verify', counts.verify, 'one-core ECDSA', undefined);
  const floorLine = (route: string, key: string, of: string) =>
    m[`floor_${key}_cpu_ratio`] === undefined
      ? []
      : [
          `${route} per CPU-second: ${fmt(m[`${key}_floor_cpu_ratio`] ?? 0)} of its floor, which is itself ${fmt(m[`floor_${key}_cpu_ratio`] ?? 0)} of ${of} (the floor: bench/http/floorApp.ts).`,
        ];
  lines.push(
    '',
    ...floorLine('/challenge', 'challenge', 'the bare app'),
    ...floorLine('/siteverify (valid)', 'siteverify_valid', 'the bare app'),
    ...floorLine('/verify', 'verify', 'the one-core ECDSA import+verify rate'),
  );
  if (m.scaling_ratio !== undefined) {
    lines.push(
      '',
      `Whole machine, nothing pinned, /verify: WORKERS=1 ${fmt(m.scaling_verify_rps_1 ?? 0)} req/s (server CPU ${fmt(m.scaling_verify_cpu_pct_1 ?? 0)}%, ${fmt(m.scaling_verify_cpu_us_1 ?? 0)} µs/req; wrk ${fmt(m.scaling_wrk_cpu_pct_1 ?? 0)}%), ` +
        `WORKERS=${m.scaling_workers} ${fmt(m.scaling_verify_rps_n ?? 0)} req/s (server CPU ${fmt(m.scaling_verify_cpu_pct_n ?? 0)}%, ${fmt(m.scaling_verify_cpu_us_n ?? 0)} µs/req; wrk ${fmt(m.scaling_wrk_cpu_pct_n ?? 0)}%): ${(m.scaling_ratio * 100).toFixed(0)}% of ${m.scaling_workers} x the one-thread rate.`,
    );
  }
  if (r.stages !== undefined) lines.push(...stageMarkdown(r.stages, m), '');
  lines.push(`RSS peak through the per-route load (WORKERS=1): ${fmt(m.rss_peak_mib ?? 0)} MiB.`);
  lines.push(
    `/siteverify (valid) and /verify: the memory-store and Redis-store servers driven in turns, ${ROUNDS} rounds each (A B A B ...), each round a share of the same bodies.`,
  );
  lines.push(
    '',
    `RSS before/after ${counts.challengeFlood} /challenge: ${fmt(m.rss_before_mib ?? 0)} MiB -> ${fmt(m.rss_after_mib ?? 0)} MiB (growth ${fmt(m.rss_growth_mib ?? 0)} MiB).`,
    '',
    '| target | value | goal | met |',
    '|---|---:|---|---|',
    ...r.targets.map(
      (t) =>
        `| ${t.name} | ${t.name.startsWith('RSS') ? `${fmt(t.value)} MiB` : t.name.includes('ECDSA') ? `${fmt(t.value)}x` : `${(t.value * 100).toFixed(0)}%`} | ${t.target} | ${t.pass ? 'yes' : '**no**'} |`,
    ),
    '',
    r.regressions.length === 0
      ? 'No regression over 10% against the baseline (or no baseline).'
      : `Regressions over 10% against the baseline:\n${r.regressions.map((x) => `- ${x}`).join('\n')}`,
  );
  if (r.errors.length > 0) lines.push('', 'Unexpected answers:', ...r.errors.map((e) => `- ${e}`));
  return `${lines.join('\n')}\n`;
}

/**
 * The report of a run from its raw metrics: adds the ratios (to the denominators measured in the
 * same run, and Redis to memory), judges the targets, flags regressions over 10% against
 * `baseline` (not for quick runs) and lays out the section's rows and notes.
 */
export function report(
  metrics: Record<string, number>,
  errors: string[],
  run: {
    quick: boolean;
    loadAverage: number;
    counts: RequestCounts;
    baseline: Record<string, number> | undefined;
    stages?: VerifyStages | undefined;
  },
): HttpBenchResult {
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
    floor_challenge_cpu_ratio: ratio('floor_challenge_per_cpu_s', 'ceiling_challenge_per_cpu_s'),
    floor_siteverify_valid_cpu_ratio: ratio('floor_siteverify_valid_per_cpu_s', 'ceiling_siteverify_valid_per_cpu_s'),
    challenge_floor_cpu_ratio: ratio('challenge_per_cpu_s', 'floor_challenge_per_cpu_s'),
    siteverify_valid_floor_cpu_ratio: ratio('siteverify_valid_per_cpu_s', 'floor_siteverify_valid_per_cpu_s'),
    verify_floor_cpu_ratio: ratio('verify_per_cpu_s', 'floor_verify_per_cpu_s'),
    floor_verify_cpu_ratio: ratio('floor_verify_per_cpu_s', 'ecdsa_import_verify_per_cpu_s'),
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

  const result: HttpBenchResult = {
    date: new Date().toISOString(),
    quick: run.quick,
    node: process.version,
    loadAverage: run.loadAverage,
    metrics,
    targets,
    regressions: run.quick ? [] : compare(metrics, run.baseline),
    errors,
    stages: run.stages,
    section: { name: SECTION_NAME, rows: [] },
  };
  result.section.rows = [...sectionRows(metrics, run.counts), ...(run.stages === undefined ? [] : stageSectionRows(run.stages, metrics))];
  result.section.notes = [
    ...targets.map((t) => `target ${t.name} ${t.target}: ${t.pass ? 'met' : 'MISSED'} (${fmt(t.value)})`),
    ...result.regressions.map((r) => `regression over 10%: ${r}`),
    ...errors.map((e) => `unexpected: ${e}`),
  ];
  return result;
}

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
import { spawn, type ChildProcess } from 'node:child_process';
import { createPublicKey, createSign, generateKeyPairSync, type JsonWebKey, type KeyObject, verify as ecdsaVerify } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Challenge } from '../src/core/challenge/issueChallenge.js';
import { mintChallengeId } from '../src/core/challenge/mintChallengeId.js';
import { issueSessionToken } from '../src/core/issueSessionToken.js';
import { loadKernel, type RawEvent } from '../src/kernel/index.js';
import { keyRing } from '../src/core/token/keys.js';
import { type TestRedis, startRedis } from '../test/helpers/redisServer.js';
import type { Row, Section } from './run.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const resultsDir = join(repoRoot, 'bench', 'results');

/** The bench server's signing secret: fixed so the run can mint valid session tokens itself. */
const SECRET = 'bench-signing-secret-0123456789abcdef-0123456789';
const SITE_KEY = 'bench-site';

/** Load sizes; BENCH_QUICK=1 shrinks them for a smoke run (its numbers are not comparable). */
const QUICK = process.env.BENCH_QUICK === '1';
const COUNTS = {
  challengeFlood: QUICK ? 50_000 : 1_000_000,
  ceiling: QUICK ? 50_000 : 300_000,
  verify: QUICK ? 2_000 : 20_000,
  siteverifyValid: QUICK ? 20_000 : 100_000,
  siteverifyInvalid: QUICK ? 20_000 : 200_000,
};
/** wrk: one thread (the server has the other core), enough connections to keep it busy. */
const WRK_THREADS = 1;
const WRK_CONNECTIONS = 64;
/** A route run that has not finished in this time is reported incomplete. */
const RUN_CAP_SECONDS = 300;
const MiB = 1024 * 1024;

/** One wrk run: answers counted, those not as expected, and the rate from first send to last answer. */
interface LoadResult {
  responses: number;
  errors: number;
  firstError?: string;
  seconds: number;
  rps: number;
  /** wrk's own CPU use: near 100% means the load generator, not the server, set the pace. */
  generatorCpuPct: number;
  p50Ms: number;
  p99Ms: number;
}

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

// ---------------------------------------------------------------------------------------------
// wrk driver: a Lua script that sends exactly `count` requests, each body from a file line (or
// one repeated body), checks every answer, and times the run itself (wrk's own duration is its
// -d cap). Requests sent after the last body are GET /__bench_filler (404) and not counted.

const WRK_SCRIPT = String.raw`
local ffi = require("ffi")
ffi.cdef[[
typedef struct { long tv_sec; long tv_nsec; } bench_timespec;
int clock_gettime(int clk, bench_timespec *tp);
]]
local ts = ffi.new("bench_timespec")
local function now()
  ffi.C.clock_gettime(1, ts)
  return tonumber(ts.tv_sec) + tonumber(ts.tv_nsec) * 1e-9
end

local threads = {}
local next_id = 0
function setup(thread)
  thread:set("id", next_id)
  next_id = next_id + 1
  table.insert(threads, thread)
end

-- args: bodies_file count nthreads path expect_status expect_text
function init(args)
  local file, total = args[1], tonumber(args[2])
  local nthreads = tonumber(args[3])
  path, expect_status, expect_text = args[4], tonumber(args[5]), args[6]
  bodies = {}
  for line in io.lines(file) do table.insert(bodies, line) end
  -- this thread's share of the requests; bodies are used in order, cycling if fewer than count
  count = math.floor(total / nthreads)
  if id < total % nthreads then count = count + 1 end
  offset = id
  stride = nthreads
  hdrs = { ["Content-Type"] = "application/json" }
  filler = wrk.format("GET", "/__bench_filler")
  sent, answered, errors, t0, t1 = 0, 0, 0, 0, 0
  first_error = ""
  -- wrk calls request() once on thread 0 before the run to inspect it; that call sends nothing
  dry_run = id == 0
end

function request()
  if dry_run then
    dry_run = false
    return filler
  end
  if sent >= count then return filler end
  if sent == 0 then t0 = now() end
  local i = (offset + sent * stride) % #bodies + 1
  sent = sent + 1
  return wrk.format("POST", path, hdrs, bodies[i])
end

function response(status, headers, body)
  if status == 404 and sent >= count then return end
  answered = answered + 1
  if status ~= expect_status or not string.find(body, expect_text, 1, true) then
    errors = errors + 1
    if first_error == "" then first_error = status .. " " .. string.sub(body, 1, 200) end
  end
  if answered == count then
    t1 = now()
    io.write("WRK_THREAD_DONE\n")
    io.flush()
    wrk.thread:stop()
  end
end

function done(summary, latency, requests)
  local answered_all, errors_all, t0_min, t1_max = 0, 0, math.huge, 0
  local first = ""
  for _, t in ipairs(threads) do
    answered_all = answered_all + t:get("answered")
    errors_all = errors_all + t:get("errors")
    if t:get("t0") > 0 and t:get("t0") < t0_min then t0_min = t:get("t0") end
    if t:get("t1") > t1_max then t1_max = t:get("t1") end
    if first == "" then first = t:get("first_error") end
  end
  local socket_errors = summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout
  io.write(string.format(
    'WRK_RESULT {"answered":%d,"errors":%d,"socket_errors":%d,"seconds":%.6f,"p50_us":%d,"p99_us":%d}\n',
    answered_all, errors_all, socket_errors, t1_max > 0 and (t1_max - t0_min) or -1,
    latency:percentile(50), latency:percentile(99)))
  io.write("WRK_FIRST_ERROR " .. string.gsub(first, "\n", " ") .. "\n")
end
`;

interface LoadSpec {
  url: string;
  path: string;
  /** Request bodies, one JSON text each; used in order, cycling when fewer than `count`. */
  bodies: string[];
  count: number;
  expectStatus: number;
  /** A substring every counted answer must contain. */
  expectText: string;
}

async function runWrk(work: string, spec: LoadSpec): Promise<LoadResult> {
  const bodiesFile = join(work, 'bodies.txt');
  writeFileSync(bodiesFile, `${spec.bodies.join('\n')}\n`);
  const scriptFile = join(work, 'load.lua');
  writeFileSync(scriptFile, WRK_SCRIPT);
  const args = [
    `-t${WRK_THREADS}`,
    `-c${WRK_CONNECTIONS}`,
    `-d${RUN_CAP_SECONDS}s`,
    '--timeout',
    '10s',
    '-s',
    scriptFile,
    spec.url,
    '--',
    bodiesFile,
    String(spec.count),
    String(WRK_THREADS),
    spec.path,
    String(spec.expectStatus),
    spec.expectText,
  ];
  const wrk = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let threadsDone = 0;
  let generatorCpu = 0;
  wrk.stdout.setEncoding('utf8');
  wrk.stdout.on('data', (chunk: string) => {
    out += chunk;
    const done = out.split('\n').filter((l) => l === 'WRK_THREAD_DONE').length;
    // Every thread has its count: cut wrk's -d sleep short (SIGINT ends a run early, cleanly).
    if (done === WRK_THREADS && threadsDone < WRK_THREADS) {
      generatorCpu = cpuSeconds(wrk.pid as number);
      wrk.kill('SIGINT');
    }
    threadsDone = done;
  });
  let err = '';
  wrk.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const code = await new Promise<number | null>((r) => wrk.on('close', r));
  const line = out.split('\n').find((l) => l.startsWith('WRK_RESULT '));
  if (line === undefined) throw new Error(`wrk failed (exit ${code}): ${err || out}`);
  const r = JSON.parse(line.slice('WRK_RESULT '.length)) as {
    answered: number;
    errors: number;
    socket_errors: number;
    seconds: number;
    p50_us: number;
    p99_us: number;
  };
  const firstError = out.split('\n').find((l) => l.startsWith('WRK_FIRST_ERROR '))?.slice(16).trim();
  const missing = spec.count - r.answered;
  return {
    responses: r.answered,
    errors: r.errors + r.socket_errors + Math.max(0, missing),
    ...(firstError ? { firstError } : {}),
    seconds: r.seconds,
    rps: r.seconds > 0 ? r.answered / r.seconds : 0,
    generatorCpuPct: r.seconds > 0 ? (generatorCpu / r.seconds) * 100 : 0,
    p50Ms: r.p50_us / 1000,
    p99Ms: r.p99_us / 1000,
  };
}

// ---------------------------------------------------------------------------------------------
// Child processes

async function freePort(): Promise<number> {
  return new Promise((res, rej) => {
    const s = createServer();
    s.once('error', rej);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => res(port));
    });
  });
}

interface Child {
  url: string;
  proc: ChildProcess;
  stop(): Promise<void>;
}

async function waitUntilUp(url: string, probe: string, proc: ChildProcess, log: () => string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (proc.exitCode !== null) throw new Error(`child exited (${proc.exitCode}): ${log()}`);
    try {
      const r = await fetch(url + probe, { signal: AbortSignal.timeout(1_000) });
      if (r.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`child did not come up on ${url}: ${log()}`);
}

async function spawnChild(cmd: string[], env: Record<string, string>, probe: string): Promise<Child> {
  const [bin, ...args] = cmd as [string, ...string[]];
  const proc = spawn(bin, args, { cwd: repoRoot, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  proc.stderr?.on('data', (c: Buffer) => {
    log = (log + c.toString()).slice(-4_000);
  });
  const url = `http://127.0.0.1:${env.PORT}`;
  await waitUntilUp(url, probe, proc, () => log);
  return {
    url,
    proc,
    stop: async () => {
      if (proc.exitCode !== null) return;
      const closed = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), 5_000);
      await closed;
      clearTimeout(timer);
    },
  };
}

/** The bench server; `env` adds to (or overrides) its settings, e.g. STORE=redis. */
async function startServer(env: Record<string, string> = {}): Promise<Child> {
  const cli = join(repoRoot, 'dist', 'cli.js');
  if (!existsSync(cli)) throw new Error('dist/cli.js is missing: run `npm run build` first');
  const port = await freePort();
  return spawnChild(
    ['node', cli],
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      NODE_ENV: 'production',
      SIGNING_SECRET: SECRET,
      RATE_LIMIT_PER_MINUTE: '0',
      POW_DIFFICULTY: '1',
      // the bench's traces are scripted: shadow mode scores them (full cost) without rejecting
      SCORING_MODE: 'shadow',
      // long enough for the /verify bodies made before the run to stay live through it
      CHALLENGE_TTL_MS: '600000',
      LOG_LEVEL: 'warn',
      ...env,
    },
    '/readyz',
  );
}

/** A bare uWebSockets.js app: reads each body whole and answers a fixed one of the given size. */
const BARE_APP = String.raw`
import uWS from 'uWebSockets.js';
const sizes = JSON.parse(process.env.BARE_SIZES);
const app = uWS.App();
for (const [path, size] of Object.entries(sizes)) {
  const head = '{"success":true,"pad":"';
  const body = Buffer.from(head + 'x'.repeat(Math.max(0, size - head.length - 2)) + '"}');
  app.post(path, (res) => {
    let aborted = false;
    res.onAborted(() => { aborted = true; });
    res.onData((chunk, isLast) => {
      if (isLast && !aborted) res.cork(() => res.writeHeader('content-type', 'application/json').end(body));
    });
  });
}
app.get('/healthz', (res) => res.end('{}'));
app.any('/*', (res) => res.writeStatus('404 Not Found').end());
app.listen('127.0.0.1', Number(process.env.PORT), (t) => { if (!t) process.exit(1); });
`;

async function startBareApp(sizes: Record<string, number>): Promise<Child> {
  const port = await freePort();
  return spawnChild(
    ['node', '--input-type=module', '-e', BARE_APP],
    { PORT: String(port), BARE_SIZES: JSON.stringify(sizes) },
    '/healthz',
  );
}

/** CPU time (user + system) the process has used so far, from /proc (clock ticks of 10 ms). */
function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function rssBytes(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error('no VmRSS');
  return Number(m[1]) * 1024;
}

// ---------------------------------------------------------------------------------------------
// Request bodies

async function postJson(url: string, body: unknown): Promise<{ status: number; text: string }> {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: r.status, text: await r.text() };
}

/**
 * /siteverify bodies with session tokens signed by `secret`: the server's (valid, each redeemed
 * once) or another one (forged: the right shape, a full MAC check each, then invalid_token).
 */
const ID_KEY = Buffer.alloc(32, 7);

function siteverifyBodies(n: number, now: number, secret: string): string[] {
  const ring = keyRing(secret, []);
  return Array.from({ length: n }, (_, i) =>
    JSON.stringify({
      token: issueSessionToken(ring, {
        // Well formed and dated now: redemption reads the challenge's creation time from its id.
        challengeId: mintChallengeId(ID_KEY, { siteKey: SITE_KEY, policy: '', createdAt: now, powDifficulty: 0 }).id,
        sessionId: `bench-session-${i}`,
        siteKey: SITE_KEY,
        score: 1,
        inputType: 'mouse',
        hostname: 'bench.example',
        ip: '127.0.0.1',
        now,
      }),
      session_id: `bench-session-${i}`,
    }),
  );
}

/**
 * Valid /verify bodies, each for its own fresh challenge and signed by its own key (the worst
 * case for the server's imported-key cache), built by the test client the way the widget does.
 * Returns once the time each trace spans has passed since its challenge was issued (the server
 * refuses a trace longer than that).
 */
async function verifyBodies(url: string, n: number): Promise<string[]> {
  const client = await import('../test/helpers/client.js');
  const kernel = await loadKernel();
  const bodies: string[] = [];
  let ready = 0;
  const batch = 64;
  for (let i = 0; i < n; i += batch) {
    const challenges = await Promise.all(
      Array.from({ length: Math.min(batch, n - i) }, async () => {
        const c = await postJson(`${url}/challenge`, { site_key: SITE_KEY });
        if (c.status !== 200) throw new Error(`/challenge answered ${c.status}: ${c.text}`);
        return JSON.parse(c.text) as Challenge;
      }),
    );
    for (const [j, ch] of challenges.entries()) {
      const body = client.buildSubmission(kernel, ch, { sessionId: `bench-${i + j}`, signer: spkiSigner() });
      ready = Math.max(ready, ch.created_at + client.traceSpanMs(body.events as RawEvent[]));
      bodies.push(JSON.stringify(body));
    }
  }
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, ready - Date.now())));
  return bodies;
}

/**
 * A fresh P-256 signer whose public JWK is built from the SPKI export: KeyObject.export as JWK
 * was seen to hang after a few thousand calls on Node 20.
 */
function spkiSigner(): { publicKey: string; privateKey: KeyObject } {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const spki = publicKey.export({ format: 'der', type: 'spki' });
  const point = spki.subarray(spki.length - 64); // uncompressed point: 0x04 || x || y, last 64 bytes
  const jwk = { kty: 'EC', crv: 'P-256', x: point.subarray(0, 32).toString('base64url'), y: point.subarray(32).toString('base64url') };
  return { publicKey: Buffer.from(JSON.stringify(jwk)).toString('base64'), privateKey };
}

// ---------------------------------------------------------------------------------------------
// Denominator 2: one core of node:crypto ECDSA P-256, importing the JWK each time as /verify must.

function ecdsaImportVerifyPerSecond(seconds = 2): number {
  const keys = Array.from({ length: 64 }, () => {
    const { publicKey, privateKey } = spkiSigner();
    const jwk = Buffer.from(publicKey, 'base64').toString('utf8');
    const data = Buffer.from(`challenge-id:${SITE_KEY}:1893456000000`);
    const sig = createSign('sha256').update(data).sign({ key: privateKey, dsaEncoding: 'ieee-p1363' });
    return { jwk, data, sig };
  });
  let n = 0;
  const start = process.hrtime.bigint();
  const end = start + BigInt(Math.round(seconds * 1e9));
  let now = start;
  while (now < end) {
    for (let i = 0; i < 64; i++) {
      const k = keys[i] as (typeof keys)[number];
      const key = createPublicKey({ key: JSON.parse(k.jwk) as JsonWebKey, format: 'jwk' });
      if (!ecdsaVerify('sha256', k.data, { key, dsaEncoding: 'ieee-p1363' }, k.sig)) throw new Error('ecdsa verify failed');
    }
    n += 64;
    now = process.hrtime.bigint();
  }
  return n / (Number(now - start) / 1e9);
}

// ---------------------------------------------------------------------------------------------

const TARGETS: { name: string; metric: string; min?: number; max?: number; label: string }[] = [
  { name: '/challenge vs ceiling', metric: 'challenge_ratio', min: 0.4, label: '>= 40%' },
  { name: '/siteverify (valid) vs ceiling', metric: 'siteverify_valid_ratio', min: 0.6, label: '>= 60%' },
  { name: '/siteverify (invalid) vs ceiling', metric: 'siteverify_invalid_ratio', min: 0.6, label: '>= 60%' },
  { name: '/verify vs one-core ECDSA', metric: 'verify_ratio', min: 0.8, label: '>= 0.8x' },
  { name: '/siteverify (valid), Redis store vs memory store', metric: 'redis_siteverify_valid_ratio', min: 0.7, label: '>= 70%' },
  { name: '/verify, Redis store vs memory store', metric: 'redis_verify_ratio', min: 0.9, label: '>= 90%' },
  { name: 'RSS growth after /challenge flood', metric: 'rss_growth_mib', max: 50, label: '< 50 MiB' },
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
    denominator,
    ratio,
  });
  return [
    route('POST /challenge', 'challenge', COUNTS.challengeFlood, m.ceiling_challenge_rps, m.challenge_ratio),
    route('POST /verify (valid, each a fresh challenge)', 'verify', COUNTS.verify, m.ecdsa_import_verify_per_s, m.verify_ratio),
    route('POST /siteverify (valid, each once)', 'siteverify_valid', COUNTS.siteverifyValid, m.ceiling_siteverify_valid_rps, m.siteverify_valid_ratio),
    route('POST /siteverify (bad MAC)', 'siteverify_invalid', COUNTS.siteverifyInvalid, m.ceiling_siteverify_invalid_rps, m.siteverify_invalid_ratio),
    route('POST /verify, STORE=redis (ratio to memory)', 'redis_verify', COUNTS.verify, m.verify_rps, m.redis_verify_ratio),
    route('POST /siteverify (valid), STORE=redis (ratio to memory)', 'redis_siteverify_valid', COUNTS.siteverifyValid, m.siteverify_valid_rps, m.redis_siteverify_valid_ratio),
    route('ceiling: bare uWS, /challenge sizes', 'ceiling_challenge', COUNTS.ceiling, undefined, undefined),
    route('ceiling: bare uWS, /verify sizes', 'ceiling_verify', COUNTS.ceiling, undefined, undefined),
    route('ceiling: bare uWS, /siteverify valid sizes', 'ceiling_siteverify_valid', COUNTS.ceiling, undefined, undefined),
    route('ceiling: bare uWS, /siteverify invalid sizes', 'ceiling_siteverify_invalid', COUNTS.ceiling, undefined, undefined),
    { name: 'node:crypto ECDSA P-256 JWK import+verify, one core', 'req/s': m.ecdsa_import_verify_per_s },
    { name: `RSS MiB before / after ${COUNTS.challengeFlood} /challenge`, before: m.rss_before_mib, after: m.rss_after_mib, growth: m.rss_growth_mib },
  ];
}

function markdown(r: HttpBenchResult): string {
  const m = r.metrics;
  const lines = [
    `# HTTP benchmark, ${r.date}${r.quick ? ' (quick run: not comparable)' : ''}`,
    '',
    `Node ${r.node}, ${cpus().length} cores (load average ${r.loadAverage.toFixed(2)} at the start); server and wrk (1 thread, ${WRK_CONNECTIONS} connections) on loopback.`,
    '',
    '| route | requests | req/s | p50 ms | p99 ms | server CPU | wrk CPU | server CPU µs/req | denominator | ratio |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ];
  const row = (label: string, key: string, count: number, denom: string, ratio: number | undefined) =>
    lines.push(
      `| ${label} | ${count} | ${fmt(m[`${key}_rps`] ?? 0)} | ${fmt(m[`${key}_p50_ms`] ?? 0)} | ${fmt(m[`${key}_p99_ms`] ?? 0)} | ${fmt(m[`${key}_cpu_pct`] ?? 0)}% | ${fmt(m[`${key}_wrk_cpu_pct`] ?? 0)}% | ${fmt(m[`${key}_cpu_us`] ?? 0)} | ${denom} | ${ratio === undefined ? '' : `${(ratio * 100).toFixed(0)}%`} |`,
    );
  row('POST /challenge', 'challenge', COUNTS.challengeFlood, `${fmt(m.ceiling_challenge_rps ?? 0)} req/s bare uWS`, m.challenge_ratio);
  row('POST /verify (valid, fresh challenge each)', 'verify', COUNTS.verify, `${fmt(m.ecdsa_import_verify_per_s ?? 0)} ECDSA/s`, m.verify_ratio);
  row('POST /siteverify (valid, each once)', 'siteverify_valid', COUNTS.siteverifyValid, `${fmt(m.ceiling_siteverify_valid_rps ?? 0)} req/s bare uWS`, m.siteverify_valid_ratio);
  row('POST /siteverify (bad MAC)', 'siteverify_invalid', COUNTS.siteverifyInvalid, `${fmt(m.ceiling_siteverify_invalid_rps ?? 0)} req/s bare uWS`, m.siteverify_invalid_ratio);
  row('POST /verify, STORE=redis', 'redis_verify', COUNTS.verify, `${fmt(m.verify_rps ?? 0)} req/s memory store`, m.redis_verify_ratio);
  row('POST /siteverify (valid), STORE=redis', 'redis_siteverify_valid', COUNTS.siteverifyValid, `${fmt(m.siteverify_valid_rps ?? 0)} req/s memory store`, m.redis_siteverify_valid_ratio);
  for (const key of ['challenge', 'verify', 'siteverify_valid', 'siteverify_invalid']) {
    if (m[`ceiling_${key}_rps`] !== undefined) row(`ceiling: bare uWS, ${key} sizes`, `ceiling_${key}`, COUNTS.ceiling, '', undefined);
  }
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
  /** Drives `child` with wrk and records rate, latency and the child's CPU use under `key`. */
  const measure = async (key: string, child: Child, spec: Omit<LoadSpec, 'url' | 'expectStatus'>) => {
    const pid = child.proc.pid as number;
    const cpuBefore = cpuSeconds(pid);
    const r = await runWrk(work, { ...spec, url: child.url, expectStatus: 200 });
    metrics[`${key}_rps`] = r.rps;
    metrics[`${key}_p50_ms`] = r.p50Ms;
    metrics[`${key}_p99_ms`] = r.p99Ms;
    const cpu = cpuSeconds(pid) - cpuBefore;
    if (r.seconds > 0) metrics[`${key}_cpu_pct`] = (cpu / r.seconds) * 100;
    metrics[`${key}_wrk_cpu_pct`] = r.generatorCpuPct;
    // CPU time per answer: unlike req/s, it holds when other work shares the cores
    metrics[`${key}_cpu_us`] = (cpu / spec.count) * 1e6;
    if (r.errors > 0) {
      errors.push(`${key}: ${r.errors} of ${spec.count} not as expected (first: ${r.firstError ?? 'socket error or no answer'})`);
    }
  };
  /** Per route: one request body and the size of the answer, for the ceiling app to match. */
  const sizes: Record<string, { request: string; response: number }> = {};
  const sample = async (key: string, url: string, body: string, expectText: string) => {
    const r = await postJson(url, JSON.parse(body));
    if (r.status !== 200 || !r.text.includes(expectText)) throw new Error(`${key} sample answered ${r.status}: ${r.text}`);
    sizes[key] = { request: body, response: Buffer.byteLength(r.text) };
  };
  let server: Child | undefined;
  let bare: Child | undefined;
  /** The same server on STORE=redis (a redis-server of its own, no persistence), measured right after the memory one. */
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
    await measure(`ceiling_${key}`, bare, { path: `/${key}`, bodies: [s.request], count: COUNTS.ceiling, expectText: '"success":true' });
    await bare.stop();
    bare = undefined;
  };
  try {
    server = await startServer();
    const url = server.url;
    redis = await startRedis();
    redisServer = await startServer({ STORE: 'redis', REDIS_URL: redis.url });

    // /challenge: warm up, then the flood of 1M, RSS before and after.
    const challengeBody = JSON.stringify({ site_key: SITE_KEY });
    await sample('challenge', `${url}/challenge`, challengeBody, '"pow_challenge"');
    await ceiling('challenge');
    const challengeLoad = { path: '/challenge', bodies: [challengeBody], expectText: '"pow_challenge"' };
    await runWrk(work, { ...challengeLoad, url, count: 20_000, expectStatus: 200 });
    const rssBefore = rssBytes(server.proc.pid as number);
    await measure('challenge', server, { ...challengeLoad, count: COUNTS.challengeFlood });
    const rssAfter = rssBytes(server.proc.pid as number);
    metrics.rss_before_mib = rssBefore / MiB;
    metrics.rss_after_mib = rssAfter / MiB;
    metrics.rss_growth_mib = (rssAfter - rssBefore) / MiB;

    // /siteverify with tokens that fail their MAC (answered 200, success false).
    const invalid = siteverifyBodies(1_000, Date.now(), 'not-the-server-secret-0123456789abcdef');
    await sample('siteverify_invalid', `${url}/siteverify`, invalid[0] as string, '"invalid_token"');
    await ceiling('siteverify_invalid');
    await measure('siteverify_invalid', server, { path: '/siteverify', bodies: invalid, count: COUNTS.siteverifyInvalid, expectText: '"invalid_token"' });

    // /siteverify with valid tokens, each redeemed once (minted here with the server's secret).
    // The same tokens then go to the Redis-backed server (its own store: each is fresh there).
    const valid = siteverifyBodies(COUNTS.siteverifyValid + 2, Date.now(), SECRET);
    await sample('siteverify_valid', `${url}/siteverify`, valid.pop() as string, '"success":true');
    await sample('redis_siteverify_valid', `${redisServer.url}/siteverify`, valid.pop() as string, '"success":true');
    await ceiling('siteverify_valid');
    const validLoad = { path: '/siteverify', bodies: valid, count: valid.length, expectText: '"success":true' };
    await measure('siteverify_valid', server, validLoad);
    await measure('redis_siteverify_valid', redisServer, validLoad);

    // /verify with valid submissions, each consuming its own challenge. Denominator 2 is
    // measured just before and just after it (the mean), for the same reason as the ceilings.
    try {
      // Challenges verify on any server holding the secret: the same bodies go to both.
      const bodies = await verifyBodies(url, COUNTS.verify + 2);
      await sample('verify', `${url}/verify`, bodies.pop() as string, '"success":true');
      await sample('redis_verify', `${redisServer.url}/verify`, bodies.pop() as string, '"success":true');
      await ceiling('verify');
      const before = ecdsaImportVerifyPerSecond();
      const verifyLoad = { path: '/verify', bodies, count: bodies.length, expectText: '"success":true' };
      await measure('verify', server, verifyLoad);
      metrics.ecdsa_import_verify_per_s = (before + ecdsaImportVerifyPerSecond()) / 2;
      await measure('redis_verify', redisServer, verifyLoad);
    } catch (e) {
      errors.push(`/verify not measured: ${(e as Error).message}`);
    }
  } finally {
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

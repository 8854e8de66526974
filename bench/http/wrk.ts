/**
 * The wrk driver of the HTTP bench: a Lua script that sends exactly `count` requests, each body
 * from a file line (or one repeated body), checks every answer, and times the run itself (wrk's
 * own duration is its -d cap). Requests sent after the last body are GET /__bench_filler (404)
 * and not counted. wrk may be pinned to cores (taskset) apart from the server's.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PIN, cpuSeconds } from './processes.js';

/** wrk: one thread (the server has the other core), enough connections to keep it busy. */
export const WRK_THREADS = 1;
export const WRK_CONNECTIONS = 64;
/** A route run that has not finished in this time is reported incomplete. */
const RUN_CAP_SECONDS = 300;

/** One wrk run: answers counted, those not as expected, and the rate from first send to last answer. */
export interface LoadResult {
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

export interface LoadSpec {
  url: string;
  path: string;
  /** Request bodies, one JSON text each; used in order, cycling when fewer than `count`. */
  bodies: string[];
  count: number;
  expectStatus: number;
  /** A substring every counted answer must contain. */
  expectText: string;
  /** wrk's threads and connections (default WRK_THREADS, WRK_CONNECTIONS) on any core, not pinned apart from the server. */
  whole?: { threads: number; connections: number };
}

export async function runWrk(work: string, spec: LoadSpec): Promise<LoadResult> {
  const bodiesFile = join(work, 'bodies.txt');
  writeFileSync(bodiesFile, `${spec.bodies.join('\n')}\n`);
  const scriptFile = join(work, 'load.lua');
  writeFileSync(scriptFile, WRK_SCRIPT);
  const threads = spec.whole?.threads ?? WRK_THREADS;
  const args = [
    `-t${threads}`,
    `-c${spec.whole?.connections ?? WRK_CONNECTIONS}`,
    `-d${RUN_CAP_SECONDS}s`,
    '--timeout',
    '10s',
    '-s',
    scriptFile,
    spec.url,
    '--',
    bodiesFile,
    String(spec.count),
    String(threads),
    spec.path,
    String(spec.expectStatus),
    spec.expectText,
  ];
  const [bin, ...pinned] = [...(spec.whole ? [] : PIN.generator), 'wrk', ...args] as [string, ...string[]];
  const wrk = spawn(bin, pinned, { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let threadsDone = 0;
  let generatorCpu = 0;
  wrk.stdout.setEncoding('utf8');
  wrk.stdout.on('data', (chunk: string) => {
    out += chunk;
    const done = out.split('\n').filter((l) => l === 'WRK_THREAD_DONE').length;
    // Every thread has its count: cut wrk's -d sleep short (SIGINT ends a run early, cleanly).
    if (done === threads && threadsDone < threads) {
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
  const firstError = out
    .split('\n')
    .find((l) => l.startsWith('WRK_FIRST_ERROR '))
    ?.slice(16)
    .trim();
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

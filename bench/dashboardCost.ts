// What the dashboard's collection costs /challenge and /verify, in CPU instructions (callgrind),
// on a noisy shared machine where timings cannot be trusted: a real `npm start` process on one
// thread under valgrind, instrumentation on only while a fixed set of requests is answered, with
// DASHBOARD_TOKEN unset (off) and set (on), in turns. Run: node --import tsx bench/dashboardCost.ts [requests] [rounds]
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Challenge } from '../src/core/challenge/issueChallenge.js';
import { loadKernel } from '../src/kernel/index.js';
import { buildSubmission, postJson, solution, traceEvents } from '../test/helpers/client.js';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REQUESTS = Number(process.argv[2] ?? 100);
const ROUNDS = Number(process.argv[3] ?? 2);
const WARM_UP = 30;
const SERVER_HOST = '127.0.0.1';
const kernel = await loadKernel();

/** The process running under valgrind with its output in `dir` (the `valgrind` command may be a wrapper of another pid). */
function valgrindPid(dir: string): number {
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    const cmdline = (() => {
      try {
        return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      } catch {
        return '';
      }
    })();
    if (cmdline.includes(`--callgrind-out-file=${dir}`) && !cmdline.startsWith('valgrind\0')) return Number(pid);
  }
  throw new Error(`no process writes to ${dir}`);
}

/** Instructions executed (callgrind's Ir total) in a dump file. */
function instructions(file: string): number {
  const m = /^(?:summary|totals):\s+(\d+)/m.exec(readFileSync(file, 'utf8'));
  if (m === null) throw new Error(`no totals in ${file}`);
  return Number(m[1]);
}

/**
 * Runs callgrind_control on the server. Its command reaches a process blocked in epoll only when
 * the process runs again, so the server is kept answering /healthz (the same few in both modes)
 * until the command is done.
 */
async function control(url: string, pid: number, arg: string): Promise<void> {
  const done = new Promise<void>((resolve, reject) =>
    // vgdb names its pipes after the USER and HOST variables, and the server's HOST is its
    // address: callgrind_control finds the pipes only under the same HOST.
    execFile('callgrind_control', [arg, String(pid)], { env: { ...process.env, HOST: SERVER_HOST } }, (err) =>
      err ? reject(err) : resolve(),
    ),
  );
  let finished = false;
  void done.finally(() => (finished = true)).catch(() => undefined);
  // Few of them (one every 200 ms): they fall in the measured window too, in both modes alike.
  while (!finished) {
    await fetch(`${url}/healthz`).then((r) => r.arrayBuffer());
    await new Promise((r) => setTimeout(r, 200));
  }
  await done;
}

async function pairs(url: string, n: number, pid?: number) {
  const post = (route: string, body: unknown) => postJson(`${url}${route}`, body);
  const toggle = (arg: string) => (pid === undefined ? Promise.resolve() : control(url, pid, arg));
  await toggle('--instr=on');
  const chs: Challenge[] = [];
  for (let i = 0; i < n; i++) chs.push((await post('/challenge', { site_key: 'bench' })).body);
  await toggle('--dump=challenge');
  await toggle('--instr=off');
  // Built outside the measured window: solving is the client's work.
  const bodies = chs.map((ch, i) =>
    buildSubmission(kernel, ch, { sessionId: `s${i}`, events: traceEvents(ch, solution(kernel, ch), { stepMs: 1 }) }),
  );
  await toggle('--instr=on');
  for (const body of bodies) {
    const r = await post('/verify', body);
    if (r.body.success !== true) throw new Error(`verify refused: ${JSON.stringify(r.body)}`);
  }
  await toggle('--dump=verify');
  await toggle('--instr=off');
}

async function measure(dashboard: boolean): Promise<{ challenge: number; verify: number }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'ariadne-dashcost-'));
  const child: ChildProcess = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--instr-atstart=no',
      `--callgrind-out-file=${path.join(dir, 'cg.out')}`,
      process.execPath,
      '--max-semi-space-size=2',
      '--heap-growing-percent=25',
      'dist/cli.js',
    ],
    {
      cwd: repoRoot,
      env: {
        PATH: process.env.PATH ?? '',
        HOST: SERVER_HOST,
        PORT: '0',
        WORKERS: '1',
        SIGNING_SECRET: 'bench-signing-secret-0123456789abcdef0123',
        POW_DIFFICULTY: '4',
        POW_MAX_DIFFICULTY: '4',
        RATE_LIMIT_PER_MINUTE: '10000000',
        CHALLENGE_TTL_MS: '3600000',
        SCORING_MODE: 'shadow',
        ...(dashboard ? { DASHBOARD_TOKEN: 'dashboard-token-0123456789' } : {}),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`did not start: ${out}`)), 600_000);
    child.stdout!.on('data', () => {
      const m = /"url":"(http:\/\/127\.0\.0\.1:\d+)"/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
  });
  await pairs(url, WARM_UP);
  await pairs(url, REQUESTS, valgrindPid(dir));
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  // The dumps in the order taken: the challenges', then the verifications'.
  const dumps = readdirSync(dir)
    .filter((f) => /^cg\.out\.\d+$/.test(f))
    .sort((a, b) => Number(a.split('.')[2]) - Number(b.split('.')[2]));
  const [challenge, verify] = dumps.slice(0, 2).map((f) => instructions(path.join(dir, f)) / REQUESTS) as [number, number];
  rmSync(dir, { recursive: true, force: true });
  return { challenge, verify };
}

const results: Record<'off' | 'on', { challenge: number; verify: number }[]> = { off: [], on: [] };
for (let round = 0; round < ROUNDS; round++) {
  for (const mode of ['off', 'on'] as const) {
    const r = await measure(mode === 'on');
    results[mode].push(r);
    console.log(
      `round ${round + 1}, dashboard ${mode}: /challenge ${Math.round(r.challenge)} instructions, /verify ${Math.round(r.verify)} instructions per request`,
    );
  }
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
for (const route of ['challenge', 'verify'] as const) {
  const off = median(results.off.map((r) => r[route]));
  const on = median(results.on.map((r) => r[route]));
  console.log(`/${route}: ${Math.round(off)} off, ${Math.round(on)} on (median of ${ROUNDS}): ${(((on - off) / off) * 100).toFixed(2)}%`);
}

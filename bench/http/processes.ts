/** The processes of the HTTP bench: the server, the bare uWebSockets.js app, and what /proc says of them. */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE_HEAP_FLAGS } from '../../src/cli/heapBounds.js';
import { freePort } from '../../test/helpers/freePort.js';
import { SECRET } from './bodies.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * Command prefixes that pin the measured server to core 0 and the load generator to core 1
 * (taskset), so CPU time per request is one core's; empty when there is one core or no taskset.
 */
export const PIN = ((): { server: string[]; generator: string[] } => {
  if (availableParallelism() < 2 || spawnSync('taskset', ['-c', '0', 'true']).status !== 0) return { server: [], generator: [] };
  return { server: ['taskset', '-c', '0'], generator: ['taskset', '-c', '1'] };
})();

export interface Child {
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

export async function spawnChild(cmd: string[], env: Record<string, string>, probe: string): Promise<Child> {
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

/** The servers' challenge life: long enough for the /verify bodies made before the run to stay live through it. */
export const BENCH_CHALLENGE_TTL_MS = 600_000;

/**
 * The bench server; `env` adds to (or overrides) its settings, e.g. STORE=redis. WORKERS=1 and
 * pinned to one core unless `whole` (the whole machine, for WORKERS > 1).
 */
export async function startServer(env: Record<string, string> = {}, whole = false): Promise<Child> {
  const cli = join(repoRoot, 'dist', 'cli.js');
  if (!existsSync(cli)) throw new Error('dist/cli.js is missing: run `npm run build` first');
  const port = await freePort();
  return spawnChild(
    [...(whole ? [] : PIN.server), 'node', ...NODE_HEAP_FLAGS, cli],
    {
      PORT: String(port),
      WORKERS: '1',
      HOST: '127.0.0.1',
      NODE_ENV: 'production',
      SIGNING_SECRET: SECRET,
      RATE_LIMIT_PER_MINUTE: '0',
      POW_DIFFICULTY: '1',
      // the bench's traces are scripted: shadow mode scores them (full cost) without rejecting
      SCORING_MODE: 'shadow',
      CHALLENGE_TTL_MS: String(BENCH_CHALLENGE_TTL_MS),
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

export async function startBareApp(sizes: Record<string, number>): Promise<Child> {
  const port = await freePort();
  return spawnChild(
    [...PIN.server, 'node', '--input-type=module', '-e', BARE_APP],
    { PORT: String(port), BARE_SIZES: JSON.stringify(sizes) },
    '/healthz',
  );
}

/** CPU time (user + system) the process has used so far, from /proc (clock ticks of 10 ms). */
export function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

export function rssBytes(pid: number, peak = false): number {
  const field = peak ? 'VmHWM' : 'VmRSS';
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!m) throw new Error(`no ${field}`);
  return Number(m[1]) * 1024;
}

/** Seconds the server has spent in garbage collection pauses so far, from its GET /metrics (prom-client's gc histogram). */
export async function gcSeconds(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  let sum = 0;
  for (const m of text.matchAll(/^ariadne_nodejs_gc_duration_seconds_sum\{[^}]*\} ([0-9.eE+-]+)$/gm)) sum += Number(m[1]);
  return sum;
}

/** CPU seconds of a process so far by thread: the main (JavaScript) thread's user and system time, and every other thread's (V8's helpers: concurrent marking and sweeping, the compiler). */
export function threadCpuSeconds(pid: number): { mainUser: number; mainSystem: number; others: number } {
  const ticks = (task: string) => {
    const stat = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return [Number(fields[11]) / 100, Number(fields[12]) / 100] as const;
  };
  const [mainUser, mainSystem] = ticks(String(pid));
  let others = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    if (task === String(pid)) continue;
    try {
      const [u, s] = ticks(task);
      others += u + s;
    } catch {
      // the thread ended meanwhile
    }
  }
  return { mainUser, mainSystem, others };
}

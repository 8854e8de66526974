/**
 * Whole-machine throughput: the same /verify load on a server with WORKERS=1 and one with
 * WORKERS=N, neither pinned, wrk on any core. `--workers N` picks N (default: every core).
 * On a machine where the load generator takes a core of its own, N threads have fewer than N
 * cores to themselves: the scaling figure is only meaningful where cores >= N + wrk's share.
 */
import { availableParallelism } from 'node:os';
import { verifyBodies } from './bodies.js';
import { cpuSeconds, startServer } from './processes.js';
import { runWrk } from './wrk.js';

/** `--workers N` of the bench's command line (default: the cores available). */
export function workersOf(argv: readonly string[]): number {
  const at = argv.indexOf('--workers');
  const raw = at >= 0 ? argv[at + 1] : argv.find((a) => a.startsWith('--workers='))?.slice(10);
  if (raw === undefined) return availableParallelism();
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--workers needs a positive integer, got ${JSON.stringify(raw)}`);
  return n;
}

/**
 * /verify req/s and server CPU use with WORKERS=1 and WORKERS=`workers` on the whole machine,
 * `count` valid submissions each, as metrics `scaling_*`.
 */
export async function measureScaling(work: string, workers: number, count: number): Promise<Record<string, number>> {
  const metrics: Record<string, number> = { scaling_workers: workers };
  const wrkThreads = Math.max(1, Math.floor(availableParallelism() / 4));
  for (const [label, n] of [
    ['1', 1],
    ['n', workers],
  ] as const) {
    const server = await startServer({ WORKERS: String(n) }, true);
    try {
      const bodies = await verifyBodies(server.url, count);
      const pid = server.proc.pid as number;
      const cpuBefore = cpuSeconds(pid);
      const r = await runWrk(work, {
        url: server.url,
        path: '/verify',
        bodies,
        count,
        expectStatus: 200,
        expectText: '"success":true',
        whole: { threads: wrkThreads, connections: 64 * wrkThreads },
      });
      if (r.errors > 0)
        throw new Error(`WORKERS=${n}: ${r.errors} of ${count} /verify not as expected (first: ${r.firstError ?? 'no answer'})`);
      metrics[`scaling_verify_rps_${label}`] = r.rps;
      const cpu = cpuSeconds(pid) - cpuBefore;
      metrics[`scaling_verify_cpu_pct_${label}`] = (cpu / r.seconds) * 100;
      // Steadier than req/s while other work shares the cores: equal CPU per request with more
      // threads means the threads add no cost of their own.
      metrics[`scaling_verify_cpu_us_${label}`] = (cpu / count) * 1e6;
      metrics[`scaling_wrk_cpu_pct_${label}`] = r.generatorCpuPct;
    } finally {
      await server.stop();
    }
  }
  metrics.scaling_ratio = metrics.scaling_verify_rps_n! / (workers * metrics.scaling_verify_rps_1!);
  return metrics;
}

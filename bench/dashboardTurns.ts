/**
 * What the dashboard's collection costs /challenge and /verify per CPU-second: two servers pinned
 * to the same core, one without DASHBOARD_TOKEN (nothing counted) and one with it (every answer
 * counted, flushed once a second), driven by wrk in turns (A B A B A B, RouteMeasurements) so the
 * machine's drift falls on both alike; the ratio on/off per route is the cost. The target (issue:
 * the dashboard) is a cost of at most 3%.
 *
 * Runs inside `npm run bench -- --only dashboard`, after `npm run build`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Section } from './section.js';
import { SITE_KEY, verifyBodies } from './http/bodies.js';
import { type Child, startServer } from './http/processes.js';
import { RouteMeasurements, ROUNDS } from './http/routeMeasurements.js';
import { runWrk } from './http/wrk.js';

const QUICK = process.env.BENCH_QUICK === '1';
const COUNTS = { challenge: QUICK ? 30_000 : 300_000, verify: QUICK ? 1_500 : 12_000, warmUp: 2_000 };
/** Long enough to hold the bench's login for the whole run; never sent anywhere. */
const TOKEN = 'bench-dashboard-token-0123456789';
/** The most the collection may cost a route, per CPU-second. */
export const DASHBOARD_COST_TARGET = 0.03;

export async function runDashboardBench(): Promise<Section> {
  const work = mkdtempSync(join(tmpdir(), 'ariadne-bench-dashboard-'));
  const metrics: Record<string, number> = {};
  const errors: string[] = [];
  const measurements = new RouteMeasurements(work, metrics, errors);
  let off: Child | undefined;
  let on: Child | undefined;
  try {
    off = await startServer();
    on = await startServer({ DASHBOARD_TOKEN: TOKEN });
    const servers = (key: string) => [
      { key: `${key}_off`, child: off! },
      { key: `${key}_on`, child: on! },
    ];
    const challengeLoad = { path: '/challenge', bodies: [JSON.stringify({ site_key: SITE_KEY })], expectText: '"pow_challenge"' };
    // Unmeasured, as the HTTP bench warms /challenge: V8's compilers settle before the turns.
    for (const s of [off, on]) await runWrk(work, { ...challengeLoad, url: s.url, count: 20_000, expectStatus: 200 });
    await measurements.measureInTurns(servers('challenge'), { ...challengeLoad, count: COUNTS.challenge });
    // Each body consumes its own challenge once on each server (both hold the signing secret).
    const bodies = await verifyBodies(off.url, COUNTS.verify + COUNTS.warmUp);
    await measurements.warmUp('/verify', bodies.splice(0, COUNTS.warmUp), [off.url, on.url]);
    await measurements.measureInTurns(servers('verify'), { path: '/verify', bodies, expectText: '"success":true' });
  } finally {
    await off?.stop();
    await on?.stop();
    rmSync(work, { recursive: true, force: true });
  }
  const rows = ['challenge', 'verify'].map((route) => {
    const offRate = metrics[`${route}_off_per_cpu_s`] ?? NaN;
    const onRate = metrics[`${route}_on_per_cpu_s`] ?? NaN;
    return {
      name: `/${route}`,
      'off per CPU-s': offRate,
      'on per CPU-s': onRate,
      'on / off': onRate / offRate,
      'cost %': (1 - onRate / offRate) * 100,
      'CPU µs off': metrics[`${route}_off_cpu_us`],
      'CPU µs on': metrics[`${route}_on_cpu_us`],
    };
  });
  return {
    name: 'Dashboard collection: per CPU-second with DASHBOARD_TOKEN unset and set',
    rows,
    notes: [
      `${COUNTS.challenge.toLocaleString('en-US')} /challenge and ${COUNTS.verify.toLocaleString('en-US')} /verify per server, in ${ROUNDS} turns each; both servers on one pinned core, WORKERS=1`,
      `target: cost at most ${DASHBOARD_COST_TARGET * 100}% per route; a ratio from one run (a shared machine drifts; the turns share it)`,
      ...errors,
    ],
    detail: metrics,
  };
}

/**
 * Per-route HTTP load run: the server as a child process, driven on loopback by wrk, next to the
 * two denominators it is judged against (a bare uWebSockets.js app answering the same body
 * sizes, and one-core node:crypto ECDSA P-256 import+verify), and for /challenge and /siteverify
 * the floor of the route (http/floorApp.ts). Writes bench/results/latest-http.json
 * and latest-http.md and flags regressions over 10% against bench/results/baseline.json.
 *
 * Runs inside `npm run bench`, or alone after `npm run build`:
 *   node --import tsx bench/http.ts
 * To make a run the reference, commit its report as bench/results/baseline.json.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { type TestRedis, startRedis } from '../test/helpers/redisServer.js';
import { SECRET, SITE_KEY, postJson, siteverifyBodies, verifyBodies } from './http/bodies.js';
import { ecdsaImportVerifyPerSecond } from './http/ecdsa.js';
import { type FloorRoute, startFloorApp } from './http/floorApp.js';
import { PIN, type Child, gcSeconds, rssBytes, startBareApp, startServer, threadCpuSeconds } from './http/processes.js';
import { type HttpBenchResult, baselineMetrics, markdown, report } from './http/report.js';
import { measureScaling, workersOf } from './http/scaling.js';
import { RouteMeasurements } from './http/routeMeasurements.js';
import { runWrk } from './http/wrk.js';
import { type VerifyStages, measureStagesPinned } from './http/stagesChild.js';

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

export async function runHttpBench(): Promise<HttpBenchResult> {
  const work = mkdtempSync(join(tmpdir(), 'ariadne-bench-'));
  const metrics: Record<string, number> = {};
  const errors: string[] = [];
  const loadAverage = loadavg()[0] as number;
  const measurements = new RouteMeasurements(work, metrics, errors);
  let stages: VerifyStages | undefined;
  /** Per route: one request body and the size of the answer, for the ceiling app to match. */
  const sizes: Record<string, { request: string; response: number }> = {};
  const sample = async (key: string, url: string, body: string, expectText: string) => {
    const r = await postJson(url, JSON.parse(body));
    if (r.status !== 200 || !r.text.includes(expectText)) throw new Error(`${key} sample answered ${r.status}: ${r.text}`);
    sizes[key] = { request: body, response: Buffer.byteLength(r.text) };
  };
  let server: Child | undefined;
  let bare: Child | undefined;
  let floor: Child | undefined;
  /**
   * The same server on STORE=redis (a redis-server of its own, no persistence, on the load
   * generator's core), measured right after the memory one.
   */
  let redis: TestRedis | undefined;
  let redisServer: Child | undefined;
  /**
   * Denominator 1, the HTTP ceiling for a route's request and response sizes, measured right
   * before the route itself: on a shared machine the speed of the cores drifts, and a
   * denominator taken minutes apart would skew the ratio. With `floorOf`, that route's floor
   * too, in turns with it.
   */
  const ceiling = async (key: string, floorOf?: FloorRoute) => {
    const s = sizes[key]!;
    const load = { path: `/${key}`, bodies: [s.request], count: COUNTS.ceiling, expectText: '"success":true' };
    bare = await startBareApp({ [`/${key}`]: s.response });
    if (floorOf === undefined) await measurements.measure(`ceiling_${key}`, bare, load);
    else {
      // With the route's floor (floorApp.ts), in turns: how close to the ceiling it could come at all.
      floor = await startFloorApp(floorOf, s.response);
      await measurements.measureInTurns(
        [
          { key: `ceiling_${key}`, child: bare },
          { key: `floor_${key}`, child: floor },
        ],
        load,
      );
    }
    await bare.stop();
    await floor?.stop();
    bare = floor = undefined;
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
    await ceiling('challenge', 'challenge');
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
    await measurements.measure('siteverify_invalid', server, {
      path: '/siteverify',
      bodies: invalid,
      count: COUNTS.siteverifyInvalid,
      expectText: '"invalid_token"',
    });

    // /siteverify with valid tokens, each redeemed once (minted here with the server's secret).
    // The same tokens then go to the Redis-backed server (its own store: each is fresh there).
    const valid = siteverifyBodies(COUNTS.siteverifyValid + 2, Date.now(), SECRET);
    await sample('siteverify_valid', `${url}/siteverify`, valid.pop() as string, '"success":true');
    await sample('redis_siteverify_valid', `${redisServer.url}/siteverify`, valid.pop() as string, '"success":true');
    await ceiling('siteverify_valid', 'siteverify_valid');
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
      const gcBefore = await gcSeconds(url);
      const threadsBefore = threadCpuSeconds(server.proc.pid as number);
      // The floor (floorApp.ts) takes the same bodies in the same turns: it keeps no single-use
      // marker, and it answers 400 to a body whose signature it cannot check.
      floor = await startFloorApp('verify', sizes.verify!.response);
      await measurements.measureInTurns(
        [
          { key: 'verify', child: server },
          { key: 'redis_verify', child: redisServer },
          { key: 'floor_verify', child: floor },
        ],
        { path: '/verify', bodies, expectText: '"success":true' },
      );
      // The server's own garbage collection pauses through its share of the rounds (its /metrics).
      metrics.verify_gc_us = (((await gcSeconds(url)) - gcBefore) * 1e6) / bodies.length;
      const threadsAfter = threadCpuSeconds(server.proc.pid as number);
      metrics.verify_main_user_us = ((threadsAfter.mainUser - threadsBefore.mainUser) * 1e6) / bodies.length;
      metrics.verify_main_system_us = ((threadsAfter.mainSystem - threadsBefore.mainSystem) * 1e6) / bodies.length;
      metrics.verify_helpers_us = ((threadsAfter.others - threadsBefore.others) * 1e6) / bodies.length;
      await floor.stop();
      floor = undefined;
      const after = ecdsaImportVerifyPerSecond();
      // Where the route's time goes, on the same core with the same heap flags, right after it.
      stages = await measureStagesPinned();
      metrics.ecdsa_import_verify_per_s = (before.perSecond + after.perSecond) / 2;
      metrics.ecdsa_import_verify_per_cpu_s = (before.perCpuSecond + after.perCpuSecond) / 2;
      // Signed with interface.md's text: the deployed widget's text is tried first and fails,
      // so each costs one more signature check (the key is imported once).
      const plain = await verifyBodies(url, COUNTS.verify, 'plain');
      await measurements.measure('verify_plain', server, {
        path: '/verify',
        bodies: plain,
        count: plain.length,
        expectText: '"success":true',
      });
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
    await floor?.stop();
    rmSync(work, { recursive: true, force: true });
  }

  const result = report(metrics, errors, { quick: QUICK, loadAverage, counts: COUNTS, baseline: baselineMetrics(resultsDir), stages });
  mkdirSync(resultsDir, { recursive: true });
  const { section: _section, ...plain } = result;
  writeFileSync(join(resultsDir, 'latest-http.json'), `${JSON.stringify(plain, null, 2)}\n`);
  writeFileSync(join(resultsDir, 'latest-http.md'), markdown(result, COUNTS));
  return result;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.stdout.write(markdown(await runHttpBench(), COUNTS));
}

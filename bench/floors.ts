/**
 * `npm run bench -- --only floors`: a quick reading (under a minute) of /challenge and /siteverify
 * (valid) per CPU-second against their floor apps (http/floorApp.ts), for trying a change to either
 * route. The pinned server and the route's floor take turns, ROUNDS rounds each with the same share
 * of the load, so both meet the same drift of a shared machine. The HTTP section's ratios (taken in
 * five minutes, the floor against the bare app and the route on its own) stay the judged ones.
 * Runs on `dist/` (`npm run bench` builds first), as the HTTP section does.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Row, Section } from './section.js';
import { SECRET, SITE_KEY, siteverifyBodies } from './http/bodies.js';
import { type FloorRoute, startFloorApp } from './http/floorApp.js';
import { type Child, startServer } from './http/processes.js';
import { type Load, ROUNDS, RouteMeasurements } from './http/routeMeasurements.js';

/** Requests per route (and as many to its floor), after WARM_UP unmeasured ones to each. */
const COUNT = 150_000;
const WARM_UP = 20_000;

interface Reading {
  route: string;
  floor: FloorRoute;
  /** The route's load; the floor takes `floorLoad`, whose first body also probes the route's answer size. */
  load: Load;
  floorLoad: Load;
  warmUp: Load;
  target: number;
}

/** One route against its floor: µs of server CPU per request each, over the rounds. */
async function read(m: RouteMeasurements, server: Child, r: Reading): Promise<Row> {
  const sample = r.floorLoad.bodies[0]!;
  const answer = await fetch(server.url + r.load.path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: sample });
  const floor = await startFloorApp(r.floor, Buffer.byteLength(await answer.text()));
  try {
    await m.measure(`${r.floor}_warm`, server, r.warmUp);
    await m.measure(`${r.floor}_floor_warm`, floor, { ...r.floorLoad, count: WARM_UP });
    const share = COUNT / ROUNDS;
    let route = 0;
    let floorUs = 0;
    for (let i = 0; i < ROUNDS; i++) {
      const bodies = r.load.bodies.length > 1 ? r.load.bodies.slice(i * share, (i + 1) * share) : r.load.bodies;
      await m.measure(`${r.floor}_${i}`, server, { ...r.load, bodies, count: share });
      await m.measure(`${r.floor}_floor_${i}`, floor, { ...r.floorLoad, count: share });
      route += m.metrics[`${r.floor}_${i}_cpu_us`]! / ROUNDS;
      floorUs += m.metrics[`${r.floor}_floor_${i}_cpu_us`]! / ROUNDS;
    }
    return { name: r.route, 'route CPU µs/req': route, 'floor CPU µs/req': floorUs, 'ratio per CPU-s': floorUs / route, target: r.target };
  } finally {
    await floor.stop();
  }
}

export async function runFloorsBench(): Promise<Section> {
  const work = mkdtempSync(join(tmpdir(), 'ariadne-floors-'));
  const m = new RouteMeasurements(work, {}, []);
  const server = await startServer();
  try {
    const challenge = JSON.stringify({ site_key: SITE_KEY });
    const challengeLoad = { path: '/challenge', bodies: [challenge], count: COUNT, expectText: '"pow_challenge"' };
    const tokens = siteverifyBodies(COUNT + WARM_UP + 1, Date.now(), SECRET);
    // Redeemed once by the size probe, then only by the floor, which keeps no single-use state.
    const probe = tokens.pop()!;
    const redeem = { path: '/siteverify', expectText: '"success":true' };
    const rows = [
      await read(m, server, {
        route: 'POST /challenge',
        floor: 'challenge',
        load: challengeLoad,
        floorLoad: { ...challengeLoad, expectText: '"success":true' },
        warmUp: { ...challengeLoad, count: WARM_UP },
        target: 0.85,
      }),
      await read(m, server, {
        route: 'POST /siteverify (valid, each once)',
        floor: 'siteverify_valid',
        load: { ...redeem, bodies: tokens.slice(WARM_UP), count: COUNT },
        floorLoad: { ...redeem, path: '/siteverify_valid', bodies: [probe], count: COUNT },
        warmUp: { ...redeem, bodies: tokens.slice(0, WARM_UP), count: WARM_UP },
        target: 0.8,
      }),
    ];
    if (m.errors.length > 0) throw new Error(`unexpected answers: ${m.errors.slice(0, 3).join('; ')}`);
    return {
      name: 'Per CPU-second against the floor apps (quick reading)',
      rows,
      notes: [
        `${ROUNDS} rounds of ${COUNT / ROUNDS} requests each, the pinned server and the route's floor in turns; the HTTP section's ratios are the judged ones`,
      ],
    };
  } finally {
    await server.stop();
    rmSync(work, { recursive: true, force: true });
  }
}

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postJson, verifyBodies } from '../../bench/http/bodies.js';
import { startFloorApp } from '../../bench/http/floorApp.js';
import { type Child, startServer } from '../../bench/http/processes.js';

describe('the /verify floor app', () => {
  let server: Child;
  let floor: Child;
  let bodies: string[];

  beforeAll(async () => {
    server = await startServer();
    bodies = await verifyBodies(server.url, 2);
    floor = await startFloorApp('verify', 200);
  }, 60_000);

  afterAll(async () => {
    await floor?.stop();
    await server?.stop();
  });

  // The floor does the route's signature check for real: a body the server accepts verifies
  // there too, and one whose events no longer match what was signed is answered 400.
  it('answers a valid submission and refuses one whose events were changed after signing', async () => {
    const valid = JSON.parse(bodies[0]!) as { events: { x: number }[] };
    const ok = await postJson(`${floor.url}/verify`, valid);
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('"success":true');

    const changed = structuredClone(valid);
    changed.events[1]!.x += 0.001;
    expect((await postJson(`${floor.url}/verify`, changed)).status).toBe(400);

    // The same valid body is one the server itself accepts.
    const served = await postJson(`${server.url}/verify`, valid);
    expect(served.status).toBe(200);
    expect(served.text).toContain('"success":true');
  });
});

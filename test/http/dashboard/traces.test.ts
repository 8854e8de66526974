import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEATURE_NAMES } from '../../../src/kernel/features.js';
import type { RawEvent } from '../../../src/kernel/types.js';
import { buildSubmission, postJson, postVerify, solution, traceEvents } from '../../helpers/client.js';
import { type TestServer, startTestServer } from '../../helpers/server.js';
import { until } from '../../helpers/until.js';

const TOKEN = 'dashboard-token-0123456789';

let server: TestServer;
let cookie: string;
beforeAll(async () => {
  // Every /verify sampled; addresses read from X-Forwarded-For (one trusted hop), so each run has its own.
  server = await startTestServer({
    dashboardToken: TOKEN,
    trustProxy: 1,
    traces: { sampleRate: 1, maxCount: 1_000, maxBytes: 8 * 1024 * 1024 },
    scoring: { mode: 'shadow', threshold: 0.5, table: 'v3' },
  });
  const r = await fetch(server.at('/dashboard/login'), {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token: TOKEN }),
    redirect: 'manual',
  });
  cookie = r.headers.get('set-cookie')!.split(';')[0]!;
});
afterAll(async () => {
  await server.close();
});

const traces = async () => {
  const r = await fetch(server.at('/dashboard/traces.jsonl'), { headers: { cookie } });
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toBe('application/x-ndjson');
  const text = await r.text();
  return text === '' ? [] : text.trimEnd().split('\n');
};

/**
 * The traces once more than `before` are kept: a trace is handed to the store as its answer goes
 * out, and with two threads it may reach the store just after.
 */
async function tracesAfter(before: number): Promise<string[]> {
  let lines: string[] = [];
  await until(async () => (lines = await traces()).length > before, 5_000).catch(() => undefined);
  return lines;
}

/** A distinctive string of 14 characters (an event's type holds at most 16). */
const secret = fc.stringMatching(/^[A-Za-z0-9]{14}$/).map((s) => `Z${s}`);
const address = fc.ipV4();

describe('sampled traces', () => {
  it('keeps what the scorer learns from, with the maze, features, score and outcome', async () => {
    const before = (await traces()).length;
    const ch = (await postJson(server.at('/challenge'), { site_key: 'any-site' })).body;
    const ok = await postVerify(server, buildSubmission(server.kernel, ch, { sessionId: 'kept-session' }));
    expect(ok.body.success).toBe(true);
    const lines = await tracesAfter(before);
    expect(lines).toHaveLength(before + 1);
    const record = JSON.parse(lines.at(-1)!);
    expect(record).toMatchObject({
      v: 1,
      site: '',
      outcome: 'ok',
      input_type: 'mouse',
      mode: 'shadow',
      maze: { seed: ch.maze_seed, width: ch.maze_width, height: ch.maze_height, difficulty: ch.maze_difficulty },
      cell_size: ch.cell_size,
    });
    expect(record.score).toBeGreaterThanOrEqual(0);
    expect(Object.keys(record.features)).toEqual([...FEATURE_NAMES]);
    expect(record.events.length).toBeGreaterThan(10);
    expect(record.time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:00\.000Z$/);

    // The drift panel compares the accepted ones with the table's calibration people.
    const drift = await (await fetch(server.at('/dashboard/drift'), { headers: { cookie } })).json();
    expect(drift.table).toBe('v3');
    expect(drift.traces).toBe(lines.filter((l) => JSON.parse(l).outcome === 'ok').length);
    expect(drift.features.length).toBeGreaterThan(10);
    expect(drift.features[0]).toEqual({
      feature: expect.any(String),
      wasserstein: expect.any(Number),
      ks: expect.any(Number),
      outside: expect.any(Number),
      fewPeople: expect.any(Boolean),
    });
  });

  it('never holds an address, session id, token, key, signature, challenge id or user agent (property)', async () => {
    await fc.assert(
      fc.asyncProperty(secret, secret, secret, address, fc.boolean(), async (sessionId, free, agent, ip, failing) => {
        const before = (await traces()).length;
        const ch = (await postJson(server.at('/challenge'), { site_key: 'any-site' }, { 'x-forwarded-for': ip })).body;
        // The client's own strings ride in the events' free-text fields too.
        const events: RawEvent[] = traceEvents(ch, solution(server.kernel, ch));
        const last = events.at(-1)!;
        events.push({ ...last, type: free }, { ...last, type: 'keyup', key: free }, { ...last, pointer_type: free });
        const body = buildSubmission(server.kernel, ch, { sessionId, events });
        if (failing) body.signature = `${String(body.signature).slice(0, -4)}AAAA`;
        const r = await postVerify(server, body, { 'x-forwarded-for': ip, 'user-agent': agent });
        expect(r.body, JSON.stringify(r.body)).toMatchObject({ success: !failing });
        const record = (await tracesAfter(before)).at(-1)!;
        expect(JSON.parse(record).outcome).toBe(failing ? 'invalid_signature' : 'ok');
        const identifying = [sessionId, free, agent, ip, ch.id, body.public_key, body.signature, ...(failing ? [] : [r.body.token])];
        for (const value of identifying) expect(record).not.toContain(String(value));
      }),
      { numRuns: 15 },
    );
  });
});

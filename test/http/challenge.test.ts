import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSubmission, postJson } from '../helpers/client.js';
import { type TestServer, startTestServer, withServer } from '../helpers/server.js';
import { recordingStore } from '../helpers/storeWith.js';

let server: TestServer;
let clock = Date.UTC(2030, 0, 1);
beforeAll(async () => {
  server = await startTestServer({ challengeTtlMs: 120_000, cellSize: 48, mazeWidth: 9, mazeHeight: 7 }, { now: () => clock });
});
afterAll(async () => {
  await server.close();
});

describe('POST /challenge', () => {
  it('answers every field of the Challenge table', async () => {
    const r = await postJson(server.at('/challenge'), {
      site_key: 'site-a',
      session_id: 'ignored',
      public_key: 'ignored',
      unknown: { x: 1 },
    });
    expect(r.status).toBe(200);
    const ch = r.body;
    expect(ch.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(ch).toMatchObject({
      challenge_type: 'maze',
      maze_width: 9,
      maze_height: 7,
      maze_difficulty: 0.3,
      pow_difficulty: server.config.powDifficulty,
      pow_difficulty_keyboard: server.config.powDifficulty + 3,
      site_key: 'site-a',
      created_at: clock,
      expires_at: clock + 120_000,
      cell_size: 48,
      requirements: { probe: { mode: 'none', required_completion_count: 0 }, webauthn: { mode: 'none' } },
    });
    expect(Number.isInteger(ch.maze_seed) && ch.maze_seed >= 0 && ch.maze_seed < 2 ** 32).toBe(true);
    expect(ch.pow_challenge).toMatch(/^[0-9a-f]{32}$/);
    expect(ch).not.toHaveProperty('probes');
    expect(ch).not.toHaveProperty('webauthn_request_options');
  });

  it('issues unique ids, seeds and PoW inputs', async () => {
    const all = await Promise.all(Array.from({ length: 100 }, () => postJson(server.at('/challenge'), { site_key: 's' })));
    expect(new Set(all.map((r) => r.body.id)).size).toBe(100);
    expect(new Set(all.map((r) => r.body.pow_challenge)).size).toBe(100);
    expect(new Set(all.map((r) => r.body.maze_seed)).size).toBeGreaterThan(95);
  });

  it('accepts the documented optional fields', async () => {
    const r = await postJson(server.at('/challenge'), {
      site_key: 's',
      stable_id: 'user-1',
      client_capabilities: { reduced_motion: true, webauthn_available: false, pointer_types: ['mouse', 'touch'] },
    });
    expect(r.status).toBe(200);
  });

  it('writes no single-use marker: only the adaptive proof-of-work counter of the client moves', async () => {
    const writes: string[] = [];
    await withServer({}, { now: () => clock, store: recordingStore(writes, () => clock) }, async (recorded) => {
      for (let i = 0; i < 20; i++) await postJson(recorded.at('/challenge'), { site_key: 's' });
    });
    // Per challenge: this window's count goes up, the previous window's is read (by 0).
    const window = Math.floor(clock / 60_000);
    expect(writes).toHaveLength(40);
    expect(new Set(writes)).toEqual(new Set([`increment pow:127.0.0.1:${window} by 1`, `increment pow:127.0.0.1:${window - 1} by 0`]));
  });

  it('writes nothing at all when proof of work does not adapt (POW_MAX_DIFFICULTY = POW_DIFFICULTY)', async () => {
    const writes: string[] = [];
    await withServer({ powMaxDifficulty: 8 }, { store: recordingStore(writes) }, async (fixed) => {
      for (let i = 0; i < 20; i++) expect((await postJson(fixed.at('/challenge'), { site_key: 's' })).body.pow_difficulty).toBe(8);
    });
    expect(writes).toEqual([]);
  });
});

describe('challenge expiry (injected clock)', () => {
  it('is valid up to expires_at and challenge_expired one millisecond later', async () => {
    const a = (await postJson(server.at('/challenge'), { site_key: 's' })).body;
    const b = (await postJson(server.at('/challenge'), { site_key: 's' })).body;
    const bodyA = buildSubmission(server.kernel, a);
    const bodyB = buildSubmission(server.kernel, b);
    const start = clock;
    try {
      clock = a.expires_at;
      expect((await postJson(server.at('/verify'), bodyA)).body.success).toBe(true);
      clock = b.expires_at + 1;
      const r = await postJson(server.at('/verify'), bodyB);
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ success: false, score: 0, error_code: 'challenge_expired' });
    } finally {
      clock = start;
    }
  });

  it('an expired challenge is not consumed by the refused attempt (nothing is written)', async () => {
    const a = (await postJson(server.at('/challenge'), { site_key: 's' })).body;
    const body = buildSubmission(server.kernel, a);
    const start = clock;
    clock = a.expires_at + 1;
    expect((await postJson(server.at('/verify'), body)).body.error_code).toBe('challenge_expired');
    clock = a.expires_at;
    expect((await postJson(server.at('/verify'), body)).body.success).toBe(true);
    clock = start;
  });
});

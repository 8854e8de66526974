// A keyboard solve is accepted for KEYBOARD_CHALLENGE_TTL_MS after the challenge's creation, a
// pointer solve for CHALLENGE_TTL_MS (the expires_at the client signs), and a challenge consumed
// by either stays spent for the longer of the two: on every store (memory, redis, workers).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig } from '../../src/config.js';
import type { Challenge } from '../../src/core/challenge/issueChallenge.js';
import type { Cell, RawEvent } from '../../src/kernel/types.js';
import { buildSubmission, postJson, solution } from '../helpers/client.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { postChallenge } from './helpers/postChallenge.js';

/** An arrow-key solve: keydown and keyup at each cell's centre (maze fractions), `stepMs` apart. */
function keys(ch: Challenge, cells: readonly Cell[], stepMs: number): RawEvent[] {
  return cells.flatMap((c, i) => {
    const at = { x: (c.x + 0.5) / ch.maze_width, y: (c.y + 0.5) / ch.maze_height };
    return [
      { ...at, t: i * stepMs, type: 'keydown', key: 'ArrowDown' },
      { ...at, t: i * stepMs + 90, type: 'keyup', key: 'ArrowDown' },
    ];
  });
}

const UNSCORED = { scoring: { ...defaultConfig().scoring, mode: 'off' as const }, powDifficulty: 4 };

describe('challenge life by the kind of solve (injected clock)', () => {
  const POINTER_MS = 120_000,
    KEYBOARD_MS = 600_000;
  let clock = Date.UTC(2030, 0, 1);
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ ...UNSCORED, challengeTtlMs: POINTER_MS, keyboardChallengeTtlMs: KEYBOARD_MS }, { now: () => clock });
  });
  afterAll(async () => {
    await server.close();
  });

  async function verifyAt(at: number, keyboard: boolean) {
    const ch: Challenge = await postChallenge(server, 'site-life');
    expect(ch.expires_at - ch.created_at).toBe(POINTER_MS);
    const cells = solution(server.kernel, ch);
    const events = keyboard ? keys(ch, cells, 2_000) : undefined;
    const body = buildSubmission(server.kernel, ch, events === undefined ? {} : { events });
    const start = clock;
    clock = ch.created_at + at;
    try {
      return (await postJson(server.at('/verify'), body)).body;
    } finally {
      clock = start;
    }
  }

  it('accepts a keyboard solve up to the keyboard life, and refuses it one millisecond later', async () => {
    expect(await verifyAt(KEYBOARD_MS, true)).toMatchObject({ success: true });
    expect(await verifyAt(KEYBOARD_MS + 1, true)).toEqual({ success: false, score: 0, error_code: 'challenge_expired' });
  });

  it('still refuses a pointer solve one millisecond past expires_at', async () => {
    expect(await verifyAt(POINTER_MS, false)).toMatchObject({ success: true });
    expect(await verifyAt(POINTER_MS + 1, false)).toEqual({ success: false, score: 0, error_code: 'challenge_expired' });
  });

  it('keeps a challenge spent for the whole keyboard life, when a pointer solve consumed it', async () => {
    const ch: Challenge = await postChallenge(server, 'site-life');
    const body = buildSubmission(server.kernel, ch);
    const start = clock;
    try {
      clock = ch.created_at + 10_000;
      expect((await postJson(server.at('/verify'), body)).body.success).toBe(true);
      // A keyboard solve of the same challenge, just inside the keyboard life: spent.
      const again = buildSubmission(server.kernel, ch, { events: keys(ch, solution(server.kernel, ch), 2_000) });
      clock = ch.created_at + KEYBOARD_MS;
      expect((await postJson(server.at('/verify'), again)).body).toMatchObject({
        success: false,
        score: 0,
        error_code: 'challenge_not_found',
      });
    } finally {
      clock = start;
    }
  });
});

// Real time and short lives, so that a store's own expiry (Redis's PX) is what is tested: a
// marker kept only for the pointer life would be gone from every store before the replays below.
describe('a consumed challenge stays spent for the keyboard life (real time)', () => {
  // The keyboard life leaves room for building the keyboard proof of work on a loaded machine.
  const POINTER_MS = 1_000,
    KEYBOARD_MS = 12_000;
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ ...UNSCORED, challengeTtlMs: POINTER_MS, keyboardChallengeTtlMs: KEYBOARD_MS });
  });
  afterAll(async () => {
    await server.close();
  });
  const until = (at: number) => new Promise((r) => setTimeout(r, Math.max(0, at - Date.now())));

  it('accepts a keyboard solve past expires_at, then refuses its replays until the keyboard life ends', { timeout: 30_000 }, async () => {
    const ch: Challenge = await postChallenge(server, 'site-life');
    const pointer: Challenge = await postChallenge(server, 'site-life');
    const events = keys(ch, solution(server.kernel, ch), 50);
    const body = buildSubmission(server.kernel, ch, { events });
    // Past expires_at, and past the trace's own length after issue (a trace cannot take longer
    // than the challenge has existed: a long solution at 50 ms a key can outlast the pointer life).
    await until(Math.max(ch.expires_at + 500, ch.created_at + events.at(-1)!.t + 300));
    expect((await postJson(server.at('/verify'), buildSubmission(server.kernel, pointer))).body.error_code).toBe('challenge_expired');
    expect((await postJson(server.at('/verify'), body)).body).toMatchObject({ success: true });
    // Well past the pointer life, inside the keyboard one: still spent.
    await until(Math.max(ch.created_at + 3_500, Date.now() + 500));
    expect((await postJson(server.at('/verify'), body)).body).toMatchObject({
      success: false,
      score: 0,
      error_code: 'challenge_not_found',
    });
    await until(ch.created_at + KEYBOARD_MS + 200);
    expect((await postJson(server.at('/verify'), body)).body).toEqual({ success: false, score: 0, error_code: 'challenge_expired' });
  });
});

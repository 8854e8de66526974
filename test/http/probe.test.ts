import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cell } from '../../src/kernel/types.js';
import { buildSubmission, postJson, postVerify, solution, traceEvents } from '../helpers/client.js';
import { MemoryStore } from '../../src/store/MemoryStore.js';
import { PROBE_COLORS } from '../../src/core/probe/probeLayout.js';
import { type TestServer, startTestServer, withServer } from '../helpers/server.js';
import { recordingStore } from '../helpers/storeWith.js';
import { arrowPresses } from '../kernel/helpers/events.js';
import { postChallenge } from './helpers/postChallenge.js';

let server: TestServer;
let clock = Date.UTC(2030, 0, 1);
beforeAll(async () => {
  server = await startTestServer({ probeProbability: 1 }, { now: () => clock });
});
afterAll(async () => {
  await server.close();
});

const challenge = () => postChallenge(server, 'site-p');

/** Solution cells from the start up to the probe's trigger cell. */
function toTrigger(ch: any): Cell[] {
  const path = solution(server.kernel, ch);
  const t = ch.probes[0].trigger_cell;
  const i = path.findIndex((c) => c.x === t.x && c.y === t.y);
  expect(i).toBeGreaterThan(0);
  return path.slice(0, i + 1);
}

function arm(ch: any, opts: { sessionId?: string; cells?: Cell[]; probeId?: string; on?: TestServer; along?: number[] } = {}) {
  return postJson((opts.on ?? server).at('/probe/arm'), {
    challenge_id: ch.id,
    site_key: ch.site_key,
    session_id: opts.sessionId ?? 'sess',
    probe_id: opts.probeId ?? ch.probes[0].id,
    events: traceEvents(ch, opts.cells ?? toTrigger(ch), { up: false, along: opts.along }),
  });
}

function target(ch: any): { x: number; y: number } {
  const p = ch.probes[0];
  const c = p.cells.find((cell: any) => cell.color === p.target_color);
  return { x: c.x, y: c.y };
}

function wrongCell(ch: any): { x: number; y: number } {
  const p = ch.probes[0];
  const c = p.cells.find((cell: any) => cell.color !== p.target_color);
  return { x: c.x, y: c.y };
}

function complete(ch: any, ticket: string, cell: { x: number; y: number }, sessionId = 'sess') {
  return postJson(server.at('/probe/complete'), { challenge_id: ch.id, session_id: sessionId, probe_ticket: ticket, tapped_cell: cell });
}

/** Advances the injected clock by `ms` around `fn`. */
async function later<T>(ms: number, fn: () => Promise<T>): Promise<T> {
  clock += ms;
  return fn();
}

describe('probe issuing', () => {
  it('issues a maze_stroop challenge with one colour-tap probe, without isTarget', async () => {
    const ch = await challenge();
    expect(ch.challenge_type).toBe('maze_stroop');
    expect(ch.requirements.probe).toEqual({ mode: 'required', required_completion_count: 1 });
    expect(ch.probes).toHaveLength(1);
    const p = ch.probes[0];
    expect(Object.keys(p).sort()).toEqual(
      ['cells', 'distractor_colors', 'id', 'instruction', 'target_color', 'trigger_cell', 'type'].sort(),
    );
    expect(p.type).toBe('color_tap');
    // Colours are the hex values the deployed widget names; the instruction names the target.
    const hex = PROBE_COLORS.map((c) => c.hex as string);
    for (const c of p.cells) expect(hex).toContain(c.color);
    expect(p.instruction).toBe(`Tap the ${PROBE_COLORS.find((c) => c.hex === p.target_color)!.name} cell`);
    expect(p.cells.length).toBe(6);
    for (const c of p.cells) expect(Object.keys(c).sort()).toEqual(['color', 'x', 'y']);
    expect(p.cells.filter((c: any) => c.color === p.target_color)).toHaveLength(1);
    expect(new Set(p.distractor_colors)).toEqual(new Set(p.cells.map((c: any) => c.color).filter((c: string) => c !== p.target_color)));
    expect(JSON.stringify(ch)).not.toContain('isTarget');
    // The trigger lies on the solution, so an honest trace reaches it.
    expect(toTrigger(ch).length).toBeGreaterThan(1);
  });
});

describe('issued -> armed -> completed -> /verify', () => {
  it('runs the whole flow and the completion token satisfies /verify', async () => {
    const ch = await challenge();
    const a = await arm(ch);
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ success: true, armed_at: clock, deadline_at: clock + 5000 });
    const c = await later(400, () => complete(ch, a.body.probe_ticket, target(ch)));
    expect(c.status).toBe(200);
    expect(c.body.success).toBe(true);
    // The token carries the server-measured reaction, which scoring reads at /verify.
    const claims = JSON.parse(Buffer.from(c.body.completion_token.split('.')[1], 'base64url').toString());
    expect(claims).toMatchObject({ typ: 'probe_completion', reaction_ms: 400 });
    const v = await postVerify(
      server,
      buildSubmission(server.kernel, ch, { sessionId: 'sess', probeCompletionTokens: [c.body.completion_token] }),
    );
    expect(v.body).toMatchObject({ success: true });
  });

  it('a ticket completes once', async () => {
    const ch = await challenge();
    const a = await arm(ch);
    expect((await later(300, () => complete(ch, a.body.probe_ticket, target(ch)))).body.success).toBe(true);
    const again = await complete(ch, a.body.probe_ticket, target(ch));
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ success: false, error: 'ticket_already_used', error_code: 'ticket_already_used' });
  });
});

describe('/probe/arm rules', () => {
  it('probe_not_reached when the trace stops before the trigger cell', async () => {
    const ch = await challenge();
    const r = await arm(ch, { cells: toTrigger(ch).slice(0, -1) });
    expect(r.status).toBe(400);
    expect(r.body.error_code).toBe('probe_not_reached');
  });

  it("arms from the deployed widget's keyboard trace, which has no event on the start cell", async () => {
    const ch = await challenge();
    const events = arrowPresses(toTrigger(ch), ch.maze_width, ch.maze_height);
    const r = await postJson(server.at('/probe/arm'), {
      challenge_id: ch.id,
      site_key: ch.site_key,
      session_id: 'sess',
      probe_id: ch.probes[0].id,
      events,
    });
    expect(r.body).toMatchObject({ success: true });
  });

  it('probe_not_reached when the trace is not a strict path (a jump through a wall, no short way round)', async () => {
    // A challenge whose path to the trigger has a jump that neither rule 3 fills: the straight
    // segment from the start cell's centre to a later cell's centre meets a wall, and the open
    // route is more than 4 steps longer than the cells are apart. A jump whose route is within
    // that bound is filled (the bounded detour) and arms. One event per cell: points between two
    // cells that are not neighbours would land in cells off the route.
    let refused = false;
    let detoured = false;
    for (let tries = 0; tries < 200 && !(refused && detoured); tries++) {
      const ch = await challenge();
      const cells = toTrigger(ch);
      const maze = { seed: ch.maze_seed, width: ch.maze_width, height: ch.maze_height, difficulty: ch.maze_difficulty };
      const centre = (c: Cell) => ({ mx: (c.x + 0.5) / ch.maze_width, my: (c.y + 0.5) / ch.maze_height });
      const jumps = (reached: boolean) =>
        cells.findIndex(
          (c, i) =>
            i > 1 &&
            server.kernel.walkSegment(maze, centre(cells[0]!), centre(c)) === null &&
            (server.kernel.detour(maze, cells[0]!, c) !== null) === reached,
        );
      const far = jumps(false);
      if (!refused && far !== -1) {
        expect((await arm(ch, { cells: [cells[0]!, ...cells.slice(far)], along: [1] })).body.error_code).toBe('probe_not_reached');
        refused = true;
      }
      const near = jumps(true);
      if (!detoured && near !== -1) {
        expect((await arm(ch, { cells: [cells[0]!, ...cells.slice(near)], along: [1] })).body).toMatchObject({ success: true });
        detoured = true;
      }
    }
    expect({ refused, detoured }).toEqual({ refused: true, detoured: true });
  });

  it('probe_not_found for an unknown probe id, or a challenge without probes', async () => {
    const ch = await challenge();
    expect((await arm(ch, { probeId: 'probe-9' })).body.error_code).toBe('probe_not_found');
    await withServer({ probeProbability: 0, signingSecret: server.config.signingSecret }, async (plain) => {
      const ch2 = (await postJson(plain.at('/challenge'), { site_key: 's' })).body;
      const r = await postJson(plain.at('/probe/arm'), {
        challenge_id: ch2.id,
        site_key: 's',
        session_id: 'x',
        probe_id: 'probe-1',
        events: [],
      });
      expect(r.body.error_code).toBe('probe_not_found');
    });
  });

  it('site_key_mismatch, challenge_not_found and challenge_expired as for /verify', async () => {
    const ch = await challenge();
    expect((await arm({ ...ch, site_key: 'other' })).body.error_code).toBe('site_key_mismatch');
    expect((await arm({ ...ch, id: '00000000-0000-0000-0000-000000000000' })).body.error_code).toBe('challenge_not_found');
    const start = clock;
    clock = ch.expires_at + 1;
    expect((await arm(ch)).body.error_code).toBe('challenge_expired');
    clock = start;
  });

  it('arms, completes and verifies a keyboard solve past expires_at, within the keyboard life; a pointer one is challenge_expired', async () => {
    const ch = await challenge();
    const keys = (cells: Cell[]) => arrowPresses(cells, ch.maze_width, ch.maze_height);
    const armWith = (cells: Cell[]) =>
      postJson(server.at('/probe/arm'), {
        challenge_id: ch.id,
        site_key: ch.site_key,
        session_id: 'sess',
        probe_id: ch.probes[0].id,
        events: keys(cells),
      });
    const start = clock;
    try {
      clock = ch.expires_at + 60_000;
      expect((await arm(ch)).body.error_code).toBe('challenge_expired');
      const armed = await armWith(toTrigger(ch));
      expect(armed.body.success).toBe(true);
      const done = await later(400, () => complete(ch, armed.body.probe_ticket, target(ch)));
      expect(done.body.success).toBe(true);
      const body = buildSubmission(server.kernel, ch, {
        sessionId: 'sess',
        events: keys(solution(server.kernel, ch)),
        probeCompletionTokens: [done.body.completion_token],
      });
      expect((await postJson(server.at('/verify'), body)).body).toMatchObject({ success: true });
      clock = ch.created_at + server.config.keyboardChallengeTtlMs + 1;
      expect((await armWith(toTrigger(ch))).body.error_code).toBe('challenge_expired');
    } finally {
      clock = start;
    }
  });

  it('a probe cannot be armed more than three times (no guessing over the cells)', async () => {
    const ch = await challenge();
    for (let i = 0; i < 3; i++) {
      const a = await arm(ch);
      expect(a.body.success).toBe(true);
      const c = await later(300, () => complete(ch, a.body.probe_ticket, wrongCell(ch)));
      expect(c.body.error_code).toBe('wrong_cell');
    }
    const fourth = await arm(ch);
    expect(fourth.status).toBe(400);
    expect(fourth.body).toEqual({ success: false, error: 'probe_attempts_exceeded', error_code: 'probe_attempts_exceeded' });
  });

  it('a trace that does not reach the trigger spends no attempt', async () => {
    const ch = await challenge();
    const short = toTrigger(ch).slice(0, -1);
    for (let i = 0; i < 5; i++) expect((await arm(ch, { cells: short })).body.error_code).toBe('probe_not_reached');
    for (let i = 0; i < 3; i++) expect((await arm(ch)).body.success).toBe(true);
    expect((await arm(ch)).body.error_code).toBe('probe_attempts_exceeded');
  });
});

describe('/probe/arm attempt markers', () => {
  it('concurrent arms of one probe: exactly three succeed', async () => {
    const ch = await challenge();
    const results = await Promise.all(Array.from({ length: 10 }, () => arm(ch)));
    expect(results.filter((r) => r.status === 200 && r.body.success === true)).toHaveLength(3);
    const refused = results.filter((r) => r.status !== 200);
    expect(refused).toHaveLength(7);
    for (const r of refused) expect(r.body.error_code).toBe('probe_attempts_exceeded');
  });

  it('counts attempts with single-use markers, never with counters', async () => {
    const calls: string[] = [];
    await withServer({ probeProbability: 1 }, { now: () => clock, store: recordingStore(calls, () => clock) }, async (own) => {
      const ch = await postChallenge(own, 'site-p');
      calls.length = 0; // the challenge's own proof-of-work counter
      for (let i = 0; i < 3; i++) expect((await arm(ch, { on: own })).body.success).toBe(true);
      expect((await arm(ch, { on: own })).body.error_code).toBe('probe_attempts_exceeded');
      const key = `consume probe-arm:${ch.id}:${ch.probes[0].id}`;
      expect(calls).toEqual([`${key}:1`, `${key}:1`, `${key}:2`, `${key}:1`, `${key}:2`, `${key}:3`, `${key}:1`, `${key}:2`, `${key}:3`]);
    });
  });

  it('store_unavailable (503) when the marker table is full, with no ticket', async () => {
    const store = new MemoryStore({ maxMarkers: 2, maxCounters: 10, now: () => clock });
    await withServer({ probeProbability: 1 }, { now: () => clock, store }, async (small) => {
      const ch = await postChallenge(small, 'site-p');
      expect((await arm(ch, { on: small })).body.success).toBe(true); // marker 1
      expect((await arm(ch, { on: small })).body.success).toBe(true); // marker 2: the table is now full
      const third = await arm(ch, { on: small }); // marker 3 has no room: refused, not granted
      expect(third.status).toBe(503);
      expect(third.body).toEqual({ success: false, error: 'store_unavailable', error_code: 'store_unavailable' });
      const other = await postChallenge(small, 'site-p');
      const first = await arm(other, { on: small });
      expect(first.status).toBe(503);
      expect(first.body.error_code).toBe('store_unavailable');
    });
  });
});

describe('/probe/complete rules', () => {
  it('reaction_out_of_window under 150 ms after arming, and the ticket is burnt', async () => {
    const ch = await challenge();
    const a = await arm(ch);
    const c = await later(149, () => complete(ch, a.body.probe_ticket, target(ch)));
    expect(c.body.error_code).toBe('reaction_out_of_window');
    expect((await later(300, () => complete(ch, a.body.probe_ticket, target(ch)))).body.error_code).toBe('ticket_already_used');
  });

  it('accepts exactly at 150 ms and at the deadline; ticket_expired after it', async () => {
    const ch = await challenge();
    const a1 = await arm(ch);
    expect((await later(150, () => complete(ch, a1.body.probe_ticket, target(ch)))).body.success).toBe(true);
    const a2 = await arm(ch);
    expect((await later(5000, () => complete(ch, a2.body.probe_ticket, target(ch)))).body.success).toBe(true);
    const a3 = await arm(ch);
    expect((await later(5001, () => complete(ch, a3.body.probe_ticket, target(ch)))).body.error_code).toBe('ticket_expired');
  });

  it('wrong_cell burns the ticket', async () => {
    const ch = await challenge();
    const a = await arm(ch);
    expect((await later(300, () => complete(ch, a.body.probe_ticket, wrongCell(ch)))).body.error_code).toBe('wrong_cell');
    expect((await complete(ch, a.body.probe_ticket, target(ch))).body.error_code).toBe('ticket_already_used');
  });

  it('invalid_ticket for garbage, another session, another challenge, or a completion token', async () => {
    const ch = await challenge();
    const other = await challenge();
    const a = await arm(ch);
    clock += 300;
    expect((await complete(ch, 'garbage', target(ch))).body.error_code).toBe('invalid_ticket');
    expect((await complete(ch, a.body.probe_ticket, target(ch), 'someone-else')).body.error_code).toBe('invalid_ticket');
    expect((await complete(other, a.body.probe_ticket, target(ch))).body.error_code).toBe('invalid_ticket');
    const done = await complete(ch, a.body.probe_ticket, target(ch));
    expect(done.body.success).toBe(true);
    expect((await complete(ch, done.body.completion_token, target(ch))).body.error_code).toBe('invalid_ticket');
  });
});

describe('/verify with probes', () => {
  it('probe_failed without a completion token, or with one of another session or challenge', async () => {
    const ch = await challenge();
    const other = await challenge();
    const a = await arm(other);
    const c = await later(300, () => complete(other, a.body.probe_ticket, target(other)));
    expect(c.body.success).toBe(true);
    for (const [tokens, sessionId] of [
      [undefined, 'sess'],
      [[], 'sess'],
      [['not-a-token'], 'sess'],
      [[c.body.completion_token], 'sess'],
      [[a.body.probe_ticket], 'sess'],
    ] as const) {
      const fresh = await challenge();
      const body = buildSubmission(server.kernel, fresh, { sessionId, probeCompletionTokens: tokens as string[] | undefined });
      const r = await postVerify(server, body);
      expect(r.body.error_code).toBe('probe_failed');
    }
    // A token of the right challenge but another session.
    const a2 = await arm(ch, { sessionId: 'sess-2' });
    const c2 = await later(300, () => complete(ch, a2.body.probe_ticket, target(ch), 'sess-2'));
    const r = await postVerify(
      server,
      buildSubmission(server.kernel, ch, { sessionId: 'sess', probeCompletionTokens: [c2.body.completion_token] }),
    );
    expect(r.body.error_code).toBe('probe_failed');
  });
});

// Keyboard solves cost a script more: when the events make a keyboard solve (inferred by the
// server, never the client's input_type), the proof of work needs pow_difficulty + 3 leading
// zero bits (POW_KEYBOARD_EXTRA_BITS). The token and /siteverify report the inferred type.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Challenge } from '../../src/core/challenge/issueChallenge.js';
import type { Cell, RawEvent } from '../../src/kernel/types.js';
import { buildSubmission, postJson, postVerify, solution } from '../helpers/client.js';
import { type TestServer, startTestServer, withServer } from '../helpers/server.js';
import { postChallenge } from './helpers/postChallenge.js';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ powDifficulty: 8 });
});
afterAll(async () => {
  await server.close();
});

/** keydown/keyup at each cell's centre (maze fractions), 250 ms apart. */
function keys(ch: Challenge, cells: readonly Cell[]): RawEvent[] {
  return cells.flatMap((c, i) => {
    const at = { x: (c.x + 0.5) / ch.maze_width, y: (c.y + 0.5) / ch.maze_height };
    return [
      { ...at, t: i * 250, type: 'keydown', key: 'ArrowDown' },
      { ...at, t: i * 250 + 90, type: 'keyup', key: 'ArrowDown' },
    ];
  });
}

/** The first nonce with at least `min` and fewer than `below` leading zero bits. */
function nonceWithBits(ch: Challenge, min: number, below: number): { nonce: number; hash: string } {
  for (let from = 0; ; ) {
    const r = server.kernel.solvePow(ch.pow_challenge, min, from, 1 << 20);
    if (r.nonce === null) {
      from = r.next;
      continue;
    }
    if (server.kernel.checkPow(ch.pow_challenge, r.nonce, 0).leadingZeroBits < below) return { nonce: r.nonce, hash: r.hash! };
    from = r.nonce + 1;
  }
}

async function verifyAndRedeem(body: Record<string, unknown>) {
  const r = await postVerify(server, body);
  if (r.body.success !== true) return { verify: r, siteverify: undefined };
  const s = await postJson(server.at('/siteverify'), { token: r.body.token, session_id: body.session_id });
  return { verify: r, siteverify: s.body };
}

describe('keyboard solves need pow_difficulty + 3 bits', () => {
  it('announces the keyboard difficulty in the challenge', async () => {
    const ch: Challenge = await postChallenge(server, 'site-k');
    expect(ch.pow_difficulty).toBe(8);
    expect(ch.pow_difficulty_keyboard).toBe(11);
  });

  it('refuses a keyboard solve with only the base difficulty, naming the keyboard requirement', async () => {
    const ch: Challenge = await postChallenge(server, 'site-k');
    const events = keys(ch, solution(server.kernel, ch));
    const r = await postVerify(server, buildSubmission(server.kernel, ch, { events, pow: nonceWithBits(ch, 8, 11) }));
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ success: false, score: 0, error_code: 'invalid_pow', detail: 'a keyboard solve needs 11 leading zero bits' });
  });

  it('accepts a keyboard solve with pow_difficulty + 3 bits; the token and /siteverify say keyboard', async () => {
    const ch: Challenge = await postChallenge(server, 'site-k');
    const events = keys(ch, solution(server.kernel, ch));
    const pow = nonceWithBits(ch, 11, 257);
    const { verify, siteverify } = await verifyAndRedeem({
      ...buildSubmission(server.kernel, ch, { events, pow, sessionId: 'kb-1' }),
      input_type: 'mouse',
    });
    expect(verify.body).toMatchObject({ success: true });
    const claims = JSON.parse(Buffer.from(String(verify.body.token).split('.')[1]!, 'base64url').toString());
    expect(claims.input_type).toBe('keyboard');
    expect(claims.method).toBe('keyboard');
    expect(siteverify).toMatchObject({ success: true, input_type: 'keyboard', method: 'keyboard' });
  });

  it('accepts a pointer solve with the base difficulty, whatever input_type the client claims', async () => {
    const ch: Challenge = await postChallenge(server, 'site-k');
    const pow = nonceWithBits(ch, 8, 11);
    const { verify, siteverify } = await verifyAndRedeem({
      ...buildSubmission(server.kernel, ch, { pow, sessionId: 'mouse-1' }),
      input_type: 'keyboard',
    });
    expect(verify.body).toMatchObject({ success: true });
    expect(siteverify).toMatchObject({ success: true, input_type: 'mouse', method: 'pointer' });
  });

  it('infers keyboard from the events: a few pointer events among many keydowns still need the extra bits', async () => {
    const ch: Challenge = await postChallenge(server, 'site-k');
    const cells = solution(server.kernel, ch);
    const pointer = buildSubmission(server.kernel, ch).events as RawEvent[];
    const events = [...pointer.slice(0, 4).map((e) => ({ ...e, t: 0 })), ...keys(ch, cells)];
    const r = await postVerify(server, buildSubmission(server.kernel, ch, { events, pow: nonceWithBits(ch, 8, 11) }));
    expect(r.body).toMatchObject({ error_code: 'invalid_pow', detail: 'a keyboard solve needs 11 leading zero bits' });
  });

  it('an invalid proof is invalid_pow without the keyboard detail', async () => {
    const ch: Challenge = await postChallenge(server, 'site-k');
    const events = keys(ch, solution(server.kernel, ch));
    const body = buildSubmission(server.kernel, ch, { events });
    const r = await postVerify(server, { ...body, pow_proof: { ...(body.pow_proof as object), hash: 'f'.repeat(64) } });
    expect(r.body).toEqual({ success: false, score: 0, error_code: 'invalid_pow' });
  });
});

describe('POW_KEYBOARD_EXTRA_BITS', () => {
  it('sets the extra bits (0 makes keyboard solves cost the same)', async () => {
    await withServer({ powDifficulty: 8, powKeyboardExtraBits: 0 }, async (same) => {
      const ch: Challenge = await postChallenge(same, 'site-k');
      expect(ch.pow_difficulty_keyboard).toBe(8);
      const events = keys(ch, solution(same.kernel, ch));
      const r = await postVerify(same, buildSubmission(same.kernel, ch, { events, pow: nonceWithBits(ch, 8, 9) }));
      expect(r.body).toMatchObject({ success: true });
    });
  });
});

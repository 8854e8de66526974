// /verify refuses a trace whose span (latest minus earliest event time) is longer than the time
// the server saw between issuing the challenge and this request, plus 250 ms (injected clock).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RawEvent } from '../../src/kernel/types.js';
import { buildSubmission, postJson, solution, traceEvents, traceSpanMs } from '../helpers/client.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { postChallenge } from './helpers/postChallenge.js';

let server: TestServer;
let clock = Date.UTC(2031, 5, 1);
beforeAll(async () => {
  server = await startTestServer({}, { now: () => clock });
});
afterAll(async () => {
  await server.close();
});

const verifyAt = (when: number, body: Record<string, unknown>) => {
  clock = when;
  return postJson(server.at('/verify'), body);
};

/** An honest trace of the solution, its times stretched so that it spans `spanMs`. */
function traceSpanning(ch: any, spanMs: number): RawEvent[] {
  const events = traceEvents(ch, solution(server.kernel, ch));
  const last = events.at(-1)!.t;
  return events.map((e) => ({ ...e, t: Math.round(((e.t * spanMs) / last) * 10) / 10 }));
}

const mismatch = (span: number, seen: number) => ({
  success: false,
  score: 0,
  error_code: 'trace_time_mismatch',
  detail: `the events span ${span} ms, the challenge was issued ${seen} ms before this request`,
});

describe('the time the server saw', () => {
  it('accepts a trace that fits, to the millisecond, and refuses one a millisecond longer', async () => {
    const ok = await postChallenge(server, 'site-t');
    const body = buildSubmission(server.kernel, ok);
    const span = traceSpanMs(body.events as RawEvent[]);
    expect(span).toBeGreaterThan(1_000);
    expect((await verifyAt(ok.created_at + span - 250, body)).body).toMatchObject({ success: true });

    const late = await postChallenge(server, 'site-t');
    const tooLong = buildSubmission(server.kernel, late);
    const lateSpan = traceSpanMs(tooLong.events as RawEvent[]);
    const r = await verifyAt(late.created_at + lateSpan - 251, tooLong);
    expect(r.status).toBe(400);
    expect(r.body).toEqual(mismatch(lateSpan, lateSpan - 251));
  });

  it('refuses a script claiming 8 s of tracing 1 s after the challenge; one that waits pays the time', async () => {
    const hasty = await postChallenge(server, 'site-t');
    const r = await verifyAt(hasty.created_at + 1_000, buildSubmission(server.kernel, hasty, { events: traceSpanning(hasty, 8_000) }));
    expect(r.body).toEqual(mismatch(8_000, 1_000));
    const patient = await postChallenge(server, 'site-t');
    const ok = await verifyAt(
      patient.created_at + 7_750,
      buildSubmission(server.kernel, patient, { events: traceSpanning(patient, 8_000) }),
    );
    expect(ok.body).toMatchObject({ success: true });
  });

  it('spends the challenge on a refusal: waiting and retrying it is challenge_not_found', async () => {
    const ch = await postChallenge(server, 'site-t');
    const body = buildSubmission(server.kernel, ch, { events: traceSpanning(ch, 8_000) });
    expect((await verifyAt(ch.created_at + 1_000, body)).body.error_code).toBe('trace_time_mismatch');
    expect((await verifyAt(ch.created_at + 60_000, body)).body).toMatchObject({
      error_code: 'challenge_not_found',
      detail: 'challenge already used',
    });
  });

  it('measures latest minus earliest: reordering or a huge time hides nothing', async () => {
    const ch = await postChallenge(server, 'site-t');
    // The last event back at t = 0: last minus first is 0, the trace still spans 8 s.
    const events = traceSpanning(ch, 8_000);
    events.push({ ...events.at(-1)!, t: 0 });
    expect((await verifyAt(ch.created_at + 1_000, buildSubmission(server.kernel, ch, { events }))).body).toEqual(mismatch(8_000, 1_000));
    const huge = await postChallenge(server, 'site-t');
    const far = traceEvents(huge, solution(server.kernel, huge)).map((e, i) => (i === 3 ? { ...e, t: 1e300 } : e));
    const r = await verifyAt(huge.created_at + 100_000, buildSubmission(server.kernel, huge, { events: far }));
    expect(r.body).toMatchObject({ error_code: 'trace_time_mismatch', detail: expect.stringMatching(/^the events span 1e\+300 ms/) });
  });

  it('comes after the proof of work and before the path replay', async () => {
    const a = await postChallenge(server, 'site-t');
    const good = buildSubmission(server.kernel, a, { events: traceSpanning(a, 8_000) });
    const badPow = { ...good, pow_proof: { nonce: (good.pow_proof as { nonce: number }).nonce, hash: '0'.repeat(64) } };
    expect((await verifyAt(a.created_at + 1_000, badPow)).body.error_code).toBe('invalid_pow');
    const b = await postChallenge(server, 'site-t');
    // A path that never reaches the exit, spanning 8 s, sent after 1 s: the time is what is refused.
    const short = traceSpanning(b, 8_000).slice(0, 10);
    short.push({ ...short.at(-1)!, t: 8_000 });
    expect((await verifyAt(b.created_at + 1_000, buildSubmission(server.kernel, b, { events: short }))).body.error_code).toBe(
      'trace_time_mismatch',
    );
    const c = await postChallenge(server, 'site-t');
    const shortC = traceSpanning(c, 8_000).slice(0, 10);
    expect((await verifyAt(c.created_at + 60_000, buildSubmission(server.kernel, c, { events: shortC }))).body.error_code).toBe(
      'invalid_path',
    );
  });
});

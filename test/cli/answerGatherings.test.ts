import { EventEmitter } from 'node:events';
import type { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { answerGatherings } from '../../src/cli/answerGatherings.js';
import type { FromServerThread, ToServerThread } from '../../src/cli/threadMessages.js';

/** A stand-in for a server thread: what the main thread posts to it, and what it says back. */
class FakeThread extends EventEmitter {
  readonly received: ToServerThread[] = [];
  /** How it answers a request for its part (undefined: it never does, its event loop stuck). */
  constructor(readonly answer: ((m: Extract<ToServerThread, { type: 'part' }>) => FromServerThread) | undefined) {
    super();
  }
  postMessage(m: ToServerThread): void {
    this.received.push(m);
    const answer = this.answer;
    if (m.type === 'part' && answer !== undefined) setImmediate(() => this.say(answer(m)));
  }
  say(m: FromServerThread): void {
    this.emit('message', m);
  }
  /** The next whole posted to this thread. */
  gathered(): Promise<Extract<ToServerThread, { type: 'gathered' }>> {
    return new Promise((resolve) => {
      const look = setInterval(() => {
        const m = this.received.find((r) => r.type === 'gathered');
        if (m?.type === 'gathered') {
          clearInterval(look);
          resolve(m);
        }
      }, 5);
    });
  }
}

const healthy =
  (thread: number) =>
  (m: { id: number }): FromServerThread => ({
    type: 'part',
    of: 'health',
    id: m.id,
    part: thread === 2 ? { ok: false, detail: 'redis: reconnecting' } : { ok: true },
  });

const wholes = {
  metrics: (parts: readonly (object[] | undefined)[]) => JSON.stringify(parts),
  health: (parts: readonly unknown[]) => ({ ok: false, detail: JSON.stringify(parts) }),
};

describe('answerGatherings', () => {
  it("asks every thread for its part and sends the asker the whole of them, in thread order, under the asker's id", async () => {
    const threads = [new FakeThread(healthy(1)), new FakeThread(healthy(2))];
    answerGatherings(threads as unknown as Worker[], wholes, 1_000);
    threads[1]!.say({ type: 'gather', of: 'health', id: 41 });
    const whole = await threads[1]!.gathered();
    expect(whole).toEqual({
      type: 'gathered',
      of: 'health',
      id: 41,
      whole: { ok: false, detail: JSON.stringify([{ ok: true }, { ok: false, detail: 'redis: reconnecting' }]) },
    });
    // Only the asker gets the whole; each thread was asked once.
    expect(threads[0]!.received.filter((m) => m.type === 'gathered')).toEqual([]);
    for (const t of threads) expect(t.received.filter((m) => m.type === 'part')).toHaveLength(1);
  });

  it('leaves out a thread that does not answer in time, and stops listening for it', async () => {
    const silent = new FakeThread(undefined);
    const threads = [new FakeThread(healthy(1)), silent];
    answerGatherings(threads as unknown as Worker[], wholes, 50);
    const before = silent.listenerCount('message');
    threads[0]!.say({ type: 'gather', of: 'health', id: 7 });
    const whole = await threads[0]!.gathered();
    expect(whole.whole).toEqual({ ok: false, detail: JSON.stringify([{ ok: true }, null]) });
    expect(silent.listenerCount('message')).toBe(before);
  });

  it('keeps concurrent gatherings of several askers apart', async () => {
    const metrics =
      (thread: number) =>
      (m: { id: number }): FromServerThread => ({ type: 'part', of: 'metrics', id: m.id, part: [{ thread }] });
    const threads = [new FakeThread(metrics(1)), new FakeThread(metrics(2))];
    answerGatherings(threads as unknown as Worker[], wholes, 1_000);
    threads[0]!.say({ type: 'gather', of: 'metrics', id: 1 });
    threads[1]!.say({ type: 'gather', of: 'metrics', id: 1 });
    const [a, b] = await Promise.all(threads.map((t) => t.gathered()));
    for (const w of [a, b])
      expect(w).toEqual({ type: 'gathered', of: 'metrics', id: 1, whole: JSON.stringify([[{ thread: 1 }], [{ thread: 2 }]]) });
    for (const t of threads) expect(t.received.filter((m) => m.type === 'part')).toHaveLength(2);
  });
});

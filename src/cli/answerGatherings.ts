import type { Worker } from 'node:worker_threads';
import { nextMessage } from './nextMessage.js';
import type { FromServerThread, Gathering, Gatherings, ToServerThread } from './threadMessages.js';

/**
 * How much longer than its own work (a store health check waits at most REDIS_COMMAND_TIMEOUT_MS)
 * a thread's part is awaited. A thread that has not answered by then (its event loop stuck) is
 * left out, so a load balancer's health check gets an answer, not a hang.
 */
export const PART_SLACK_MS = 1_000;

/** How each gathering's whole is made of the threads' parts, in thread order (undefined: no answer in time). */
export type Wholes = {
  [K in Gathering]: (parts: readonly (Gatherings[K]['part'] | undefined)[]) => Gatherings[K]['whole'] | Promise<Gatherings[K]['whole']>;
};

/**
 * Answers a thread's request that needs every thread (GET /metrics, /readyz): asks each thread
 * for its part, waits `partWithinMs` at most for each, and sends the asker the whole `wholes`
 * makes of them.
 */
export function answerGatherings(threads: readonly Worker[], wholes: Wholes, partWithinMs: number): void {
  let nextId = 0;
  async function gather<K extends Gathering>(of: K): Promise<Gatherings[K]['whole']> {
    const id = nextId++;
    type Part = Extract<FromServerThread, { type: 'part'; of: K }>;
    const replies = threads.map((w) => nextMessage(w, (r): r is Part => r.type === 'part' && r.id === id, partWithinMs));
    threads.forEach((w) => w.postMessage({ type: 'part', of, id } satisfies ToServerThread));
    const parts = (await Promise.all(replies)).map((r) => r?.part as Gatherings[K]['part'] | undefined);
    return wholes[of](parts);
  }
  for (const asker of threads) {
    asker.on('message', (m: FromServerThread) => {
      if (m.type !== 'gather') return;
      void gather(m.of).then((whole) => asker.postMessage({ type: 'gathered', of: m.of, id: m.id, whole } as ToServerThread));
    });
  }
}

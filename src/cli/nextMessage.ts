import type { Worker } from 'node:worker_threads';
import type { FromServerThread } from './threadMessages.js';

/** The next message of `worker` that `matches`; with `withinMs`, undefined when none came by then. */
export function nextMessage<M extends FromServerThread>(worker: Worker, matches: (m: FromServerThread) => m is M): Promise<M>;
export function nextMessage<M extends FromServerThread>(
  worker: Worker,
  matches: (m: FromServerThread) => m is M,
  withinMs: number,
): Promise<M | undefined>;
export function nextMessage<M extends FromServerThread>(
  worker: Worker,
  matches: (m: FromServerThread) => m is M,
  withinMs?: number,
): Promise<M | undefined> {
  return new Promise((resolve) => {
    const done = (m: M | undefined) => {
      clearTimeout(timer);
      worker.off('message', heard);
      resolve(m);
    };
    const heard = (m: FromServerThread) => {
      if (matches(m)) done(m);
    };
    // A thread that never answers must not keep a listener for each question asked of it.
    const timer = withinMs === undefined ? undefined : setTimeout(() => done(undefined), withinMs);
    worker.on('message', heard);
  });
}

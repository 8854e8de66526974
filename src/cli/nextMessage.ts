import type { Worker } from 'node:worker_threads';
import type { FromServerThread } from './threadMessages.js';

/** The next message of `worker` that `matches`. */
export function nextMessage<M extends FromServerThread>(worker: Worker, matches: (m: FromServerThread) => m is M): Promise<M> {
  return new Promise((resolve) => {
    const heard = (m: FromServerThread) => {
      if (!matches(m)) return;
      worker.off('message', heard);
      resolve(m);
    };
    worker.on('message', heard);
  });
}

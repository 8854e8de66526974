/**
 * A test server's clock read from another thread: the reader posts a request and sleeps
 * (Atomics.wait) until the owner thread writes its `now()` into shared memory, so a second
 * serving thread sees exactly the time the test set, advances included. The owner must not wait
 * on the reader meanwhile; it never does (stores read the clock before taking a bucket lock).
 */
import { MessageChannel, type MessagePort } from 'node:worker_threads';

/** Post `port` to the reading thread (in the transfer list) with `cell`. */
export interface SharedTestClock {
  /** Int32 [0]: 1 once answered; Float64 [1]: the time. */
  cell: SharedArrayBuffer;
  port: MessagePort;
}

/** Longest a read waits for the owner: a stuck owner fails the test instead of hanging it. */
const READ_TIMEOUT_MS = 10_000;

/** Serves `now` to readers on other threads; `close` when the server stops. */
export function shareTestClock(now: () => number): { clock: SharedTestClock; close(): void } {
  const cell = new SharedArrayBuffer(16);
  const answered = new Int32Array(cell, 0, 1);
  const time = new Float64Array(cell, 8, 1);
  const { port1, port2 } = new MessageChannel();
  port1.on('message', () => {
    time[0] = now();
    Atomics.store(answered, 0, 1);
    Atomics.notify(answered, 0);
  });
  port1.unref();
  return { clock: { cell, port: port2 }, close: () => port1.close() };
}

/** The owner's clock, read synchronously on this thread. */
export function readTestClock({ cell, port }: SharedTestClock): () => number {
  const answered = new Int32Array(cell, 0, 1);
  const time = new Float64Array(cell, 8, 1);
  return () => {
    Atomics.store(answered, 0, 0);
    port.postMessage(null);
    if (Atomics.wait(answered, 0, 0, READ_TIMEOUT_MS) === 'timed-out') throw new Error('the test clock did not answer');
    return time[0]!;
  };
}

import type { HttpResponse } from 'uWebSockets.js';

/**
 * How much of an over-limit upload is read and thrown away, and for how long, before it is
 * answered (413, and the connection closed): a client that writes its whole body before reading
 * then gets the status instead of a reset. Beyond either bound the answer goes out at once.
 */
export const DRAIN_BYTES = 1024 * 1024;
export const DRAIN_MS = 2_000;

/**
 * Reads a request body of at most `limit` bytes. `done` gets the body, or undefined once the
 * body exceeds the limit: the rest is then read and discarded (up to DRAIN_BYTES, for at most
 * DRAIN_MS) before `done` is called, unless the declared Content-Length already exceeds what would
 * be drained. The buffer may be a view of uWS memory that is only valid during the call: `done`
 * must consume it synchronously.
 * The caller has set res.onAborted; an aborted upload simply never calls `done`.
 */
export function readBody(res: HttpResponse, limit: number, contentLength: string, done: (body: Buffer | undefined) => void): void {
  if (contentLength !== '' && Number(contentLength) > limit + DRAIN_BYTES) return done(undefined);
  let chunks: Buffer[] | undefined;
  let size = 0;
  let draining: ReturnType<typeof setTimeout> | undefined;
  let answered = false;
  const refuse = () => {
    if (answered) return;
    answered = true;
    clearTimeout(draining);
    done(undefined);
  };
  res.onData((chunk, isLast) => {
    size += chunk.byteLength;
    if (draining !== undefined) {
      if (isLast || size > limit + DRAIN_BYTES) refuse();
      return;
    }
    if (size > limit) {
      chunks = undefined;
      if (isLast) return refuse();
      draining = setTimeout(refuse, DRAIN_MS);
      return;
    }
    if (isLast) {
      // One chunk (the common case): no copy at all.
      done(chunks === undefined ? Buffer.from(chunk) : Buffer.concat([...chunks, Buffer.from(chunk)], size));
      chunks = undefined;
      return;
    }
    (chunks ??= []).push(Buffer.from(chunk.slice(0)));
  });
}

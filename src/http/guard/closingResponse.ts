import type { HttpResponse, RecognizedString } from 'uWebSockets.js';
import { bodyLength } from './bodyLength.js';
import { forwardMember } from './forwardMember.js';

type Call = readonly ['writeStatus' | 'writeHeader', readonly RecognizedString[]];

const CONNECTION = Buffer.from('connection');
const CLOSE = Buffer.from('close');

/** Read on a response: true when closingResponse already shapes it. */
export const CLOSING = Symbol('closing');

/**
 * `res` whose answer is the last on its connection: nothing read after it is processed.
 * uWebSockets.js 20.30 runs every request of a read before it writes the answers of that read,
 * forgets a close when the next request of the read begins, and drops the connection, answers
 * not yet written included, when a request arrives while an answer is pending. So the answer is
 * recorded and written on the next turn of the event loop: a request behind it in the same read
 * drops the connection before it runs; otherwise the answer goes out with `Connection: close`, and
 * the connection closes. Reading stops once the request is read (at once without a body, else at
 * its last byte), so bytes sent after it, even while its answer waits, are never read.
 * `head`: a HEAD answer, without a body and with the GET answer's Content-Length. `echoed`:
 * uWebSockets.js writes `Connection: close` itself when the answer ends closing (readFraming).
 * `reading`: the request's body is still to be read.
 */
export function closingResponse(res: HttpResponse, head: boolean, echoed: boolean, reading: boolean): HttpResponse {
  const calls: Call[] = [];
  const onAbort: (() => void)[] = [];
  let aborted = false;
  let ended = false;
  let paused = false;
  res.onAborted(() => {
    aborted = true;
    for (const handler of onAbort) handler();
  });
  const stopReading = () => {
    if (paused || aborted) return;
    paused = true;
    res.pause();
  };
  if (!reading) stopReading();
  const finish = (body: RecognizedString | undefined) => {
    ended = true;
    stopReading();
    setImmediate(() => {
      if (aborted) return;
      const length = bodyLength(body);
      // tryEnd (a HEAD answer with a length) never writes the header itself.
      const header = !echoed || (head && length > 0);
      res.cork(() => {
        for (const [method, args] of calls) (res[method] as (...a: readonly RecognizedString[]) => unknown)(...args);
        if (header) res.writeHeader(CONNECTION, CLOSE);
        if (length === 0) res.endWithoutBody(0, true);
        else if (head) res.tryEnd('', length);
        else res.end(body, true);
      });
      // HEAD: tryEnd wrote the head with the GET answer's Content-Length and waits for a body that
      // is not sent; the head is on the wire once uncorked, and the connection is closed.
      if (head && length > 0) res.close();
    });
  };
  const closing: HttpResponse = new Proxy(res, {
    get(target, prop) {
      switch (prop) {
        case CLOSING:
          return true;
        case 'onAborted':
          return (handler: () => void) => (onAbort.push(handler), closing);
        case 'onData':
          return (handler: (chunk: ArrayBuffer, isLast: boolean) => void) => {
            target.onData((chunk, isLast) => {
              if (isLast) stopReading();
              handler(chunk, isLast);
            });
            return closing;
          };
        case 'cork':
          return (cb: () => void) => (cb(), closing);
        case 'writeStatus':
        case 'writeHeader':
          return (...args: RecognizedString[]) => {
            if (!ended) calls.push([prop, args]);
            return closing;
          };
        case 'end':
          return (body?: RecognizedString) => (ended || finish(body), closing);
        case 'endWithoutBody':
          return () => (ended || finish(undefined), closing);
      }
      return forwardMember(target, prop, closing);
    },
  });
  return closing;
}

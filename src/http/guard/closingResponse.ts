import type { HttpResponse, RecognizedString } from 'uWebSockets.js';
import { bodyLength } from './bodyLength.js';
import { forwardMember } from './forwardMember.js';

type Call = readonly ['writeStatus' | 'writeHeader', readonly RecognizedString[]];

/**
 * `res` whose answer closes the connection, with nothing after it answered. uWS 20.30 parses every
 * request already read on a connection before it closes, and forgets the close when the next one
 * begins; but it drops a connection on which a request arrives while the previous answer is
 * pending. So the answer is recorded and written on the next turn of the event loop: a request
 * pipelined behind this one drops the connection unanswered, and once the answer is written the
 * connection is closed.
 * A HEAD answer (`head`) has no body and the Content-Length of the GET answer.
 */
export function closingResponse(res: HttpResponse, head: boolean): HttpResponse {
  const calls: Call[] = [];
  const onAbort: (() => void)[] = [];
  let aborted = false;
  let ended = false;
  res.onAborted(() => {
    aborted = true;
    for (const handler of onAbort) handler();
  });
  const finish = (body: RecognizedString | undefined) => {
    ended = true;
    setImmediate(() => {
      if (aborted) return;
      const length = bodyLength(body);
      res.cork(() => {
        for (const [method, args] of calls) (res[method] as (...a: readonly RecognizedString[]) => unknown)(...args);
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
        case 'onAborted':
          return (handler: () => void) => (onAbort.push(handler), closing);
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

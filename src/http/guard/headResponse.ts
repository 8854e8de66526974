import type { HttpResponse, RecognizedString } from 'uWebSockets.js';
import { forwardMember } from './forwardMember.js';
import { bodyLength } from './bodyLength.js';

const CONTENT_LENGTH = Buffer.from('content-length');

/** Read on a response: true when headResponse shapes it. */
export const HEAD = Symbol('head');

/**
 * `res` answering a HEAD request: the headers of the GET answer, its Content-Length included,
 * without the body. (uWS 20.30's endWithoutBody(n) waits for n bytes that never come, so the
 * length is written as a header.)
 */
export function headResponse(res: HttpResponse): HttpResponse {
  const head: HttpResponse = new Proxy(res, {
    get(target, prop) {
      if (prop === HEAD) return true;
      if (prop === 'end') {
        return (body?: RecognizedString) => {
          target.writeHeader(CONTENT_LENGTH, String(bodyLength(body)));
          target.endWithoutBody();
          return head;
        };
      }
      return forwardMember(target, prop, head);
    },
  });
  return head;
}

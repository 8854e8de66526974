import type { HttpRequest, HttpResponse, RecognizedString, TemplatedApp } from 'uWebSockets.js';
import { failure } from '../../core/errors.js';
import { writeReply } from '../reply.js';
import { plainFailure } from '../route.js';
import { closingResponse } from './closingResponse.js';
import { headResponse } from './headResponse.js';
import { readFraming } from './readFraming.js';

type Handler = (res: HttpResponse, req: HttpRequest) => void | Promise<void>;

const REGISTRATIONS = new Set(['get', 'post', 'put', 'del', 'patch', 'head', 'options', 'connect', 'trace', 'any']);

/**
 * The handler, behind the framing check and the HEAD / Connection: close shaping. `head`: whether
 * it answers HEAD requests, known from how it was registered except for `any` (asked per request).
 */
function guarded(handler: Handler, head: boolean | 'ask'): Handler {
  return (res, req) => {
    const isHead = head === 'ask' ? req.getMethod() === 'head' : head;
    const { fault, close, closeEchoed, body } = readFraming(req);
    if (fault !== undefined) {
      // Where this body ends cannot be trusted: nothing after it on the connection is read.
      writeReply(closingResponse(res, isHead, closeEchoed, body), plainFailure(failure('invalid_framing', fault)), []);
      return;
    }
    if (close) return handler(closingResponse(res, isHead, closeEchoed, body), req);
    return handler(isHead ? headResponse(res) : res, req);
  };
}

/**
 * `app`, with every handler registered through it guarded: a request whose body framing is
 * ambiguous answers 400 `invalid_framing` and its connection closes; HEAD is answered by the GET
 * route of its path, with headers only; the answer to a `Connection: close` request closes the
 * connection, and nothing read after it is processed (closingResponse).
 */
export function guardRequests(app: TemplatedApp): TemplatedApp {
  const proxy: TemplatedApp = new Proxy(app, {
    get(target, prop) {
      const value = Reflect.get(target, prop) as unknown;
      if (typeof value !== 'function') return value;
      if (typeof prop === 'string' && REGISTRATIONS.has(prop)) {
        return (pattern: RecognizedString, handler: Handler) => {
          (value as (p: RecognizedString, h: Handler) => unknown).call(
            target,
            pattern,
            guarded(handler, prop === 'any' ? 'ask' : prop === 'head'),
          );
          // uWS routes HEAD to head and any handlers only.
          if (prop === 'get') target.head(pattern, guarded(handler, true));
          return proxy;
        };
      }
      return (value as (...a: unknown[]) => unknown).bind(target);
    },
  });
  return proxy;
}

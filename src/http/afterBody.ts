import type { HttpRequest, HttpResponse } from 'uWebSockets.js';
import { readBody } from './readBody.js';

/**
 * Runs `answer` once the request's body (if it has one) has been read and discarded, within the
 * bounds of readBody's drain: an early answer (404, 405) then reaches a client still uploading.
 */
export function afterBody(res: HttpResponse, req: HttpRequest, answer: () => void): void {
  const contentLength = req.getHeader('content-length');
  const hasBody = (contentLength !== '' && contentLength !== '0') || req.getHeader('transfer-encoding') !== '';
  if (!hasBody) return answer();
  let open = true;
  res.onAborted(() => {
    open = false;
  });
  readBody(res, 0, contentLength, () => {
    if (open) answer();
  });
}

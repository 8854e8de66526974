import type { HttpResponse } from 'uWebSockets.js';
import { CLOSING, closingResponse } from './closingResponse.js';
import { HEAD } from './headResponse.js';

/**
 * `res`, shaped so that the answer it is about to write is the last on its connection
 * (closingResponse): for an answer the server decides closes it (405, 404, 413, shutting down).
 * A request uWebSockets.js reads as close was shaped when it came in (guardRequests), so any other
 * gets `Connection: close` from uWebSockets.js itself.
 */
export function closeAfter(res: HttpResponse): HttpResponse {
  const marks = res as unknown as Record<symbol, unknown>;
  return marks[CLOSING] === true ? res : closingResponse(res, marks[HEAD] === true, true, false);
}

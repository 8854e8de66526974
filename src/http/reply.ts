import type { HttpResponse, RecognizedString } from 'uWebSockets.js';
import type { Header } from './cors.js';
import { closeAfter } from './guard/closeAfter.js';

/** What a route answers: status, JSON body (or text), extra headers. */
export interface Reply {
  status: number;
  body: unknown;
  headers?: readonly Header[];
  /** `body` is text already (JSON written by hand, or /metrics) of this type. */
  contentType?: RecognizedString;
  /** The last answer on the connection: it closes after it, and nothing read after it is processed. */
  close?: boolean;
  /** Error code of a failure, for metrics; never sent. */
  code?: string;
}

const STATUS_LINE: Record<number, string> = {
  204: '204 No Content',
  400: '400 Bad Request',
  401: '401 Unauthorized',
  403: '403 Forbidden',
  404: '404 Not Found',
  405: '405 Method Not Allowed',
  413: '413 Payload Too Large',
  429: '429 Too Many Requests',
  500: '500 Internal Server Error',
  503: '503 Service Unavailable',
};

const CONTENT_TYPE = Buffer.from('content-type');
export const JSON_TYPE = Buffer.from('application/json');
const CACHE_CONTROL = Buffer.from('cache-control');
const NO_STORE = Buffer.from('no-store');

/** Writes `reply` in one corked write. `cors` are the headers computed when the request came in. */
export function writeReply(to: HttpResponse, reply: Reply, cors: readonly Header[]): void {
  const res = reply.close === true ? closeAfter(to) : to;
  const body = reply.status === 204 ? undefined : reply.contentType === undefined ? JSON.stringify(reply.body) : String(reply.body);
  res.cork(() => {
    // uWS answers 200 OK unless told otherwise.
    if (reply.status !== 200) res.writeStatus(STATUS_LINE[reply.status] ?? String(reply.status));
    for (let i = 0; i < cors.length; i++) res.writeHeader(cors[i]![0], cors[i]![1]);
    if (reply.headers !== undefined) for (const [k, v] of reply.headers) res.writeHeader(k, v);
    if (body === undefined) {
      res.endWithoutBody(0, reply.close);
      return;
    }
    res.writeHeader(CONTENT_TYPE, reply.contentType ?? JSON_TYPE);
    res.writeHeader(CACHE_CONTROL, NO_STORE);
    res.end(body, reply.close);
  });
}

import type { HttpRequest } from 'uWebSockets.js';

/** What the guard needs of a request's headers. */
export interface Framing {
  /** What is wrong with how the request frames its body, or undefined when nothing is. */
  fault: string | undefined;
  /** A Connection header lists `close`. */
  close: boolean;
}

const CLOSE_TOKEN = /(?:^|,)\s*close\s*(?:,|$)/i;

/**
 * Reads the request's framing and Connection header in one pass over its headers (each header
 * visited is a call from uWebSockets.js into JavaScript). uWebSockets.js reads the first
 * of two Content-Length headers and parses any Transfer-Encoding as chunked, so a request another
 * parser (a proxy, a cache) frames differently could smuggle a second request in its body: any
 * framing two parsers could disagree on is a fault.
 */
export function readFraming(req: HttpRequest): Framing {
  let lengths = 0;
  let encodings = 0;
  let encoding = '';
  let close = false;
  req.forEach((name, value) => {
    if (name === 'content-length') lengths++;
    else if (name === 'transfer-encoding') {
      encodings++;
      encoding = value;
    } else if (name === 'connection' && CLOSE_TOKEN.test(value)) close = true;
  });
  return { fault: fault(lengths, encodings, encoding), close };
}

function fault(lengths: number, encodings: number, encoding: string): string | undefined {
  if (lengths > 1) return 'more than one Content-Length header';
  if (encodings > 1) return 'more than one Transfer-Encoding header';
  if (encodings === 1 && lengths === 1) return 'both Content-Length and Transfer-Encoding';
  // Transfer codings are case-insensitive (RFC 9112); any other coding or list is refused.
  if (encodings === 1 && encoding.toLowerCase() !== 'chunked') return 'a Transfer-Encoding other than chunked';
  return undefined;
}

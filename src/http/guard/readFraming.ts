import type { HttpRequest } from 'uWebSockets.js';

/** What the guard needs of a request's headers. */
export interface Framing {
  /** What is wrong with how the request frames its body, or undefined when nothing is. */
  fault: string | undefined;
  /**
   * The answer closes the connection: a Connection header lists `close`, or the first Connection
   * header is five characters long (uWebSockets.js reads any such value as close, whatever it says).
   */
  close: boolean;
  /**
   * uWebSockets.js writes `Connection: close` itself on a closing answer to this request: it does
   * not when it read the request as close (a five-character first Connection header).
   */
  closeEchoed: boolean;
  /** The request says it has a body (a non-zero Content-Length, or a Transfer-Encoding). */
  body: boolean;
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
  let first: string | undefined;
  let body = false;
  req.forEach((name, value) => {
    if (name === 'content-length') {
      lengths++;
      if (value !== '0') body = true;
    } else if (name === 'transfer-encoding') {
      encodings++;
      encoding = value;
      body = true;
    } else if (name === 'connection') {
      first ??= value;
      if (CLOSE_TOKEN.test(value)) close = true;
    }
  });
  const readAsClose = first?.length === 5;
  return { fault: fault(lengths, encodings, encoding), close: close || readAsClose, closeEchoed: !readAsClose, body };
}

function fault(lengths: number, encodings: number, encoding: string): string | undefined {
  if (lengths > 1) return 'more than one Content-Length header';
  if (encodings > 1) return 'more than one Transfer-Encoding header';
  if (encodings === 1 && lengths === 1) return 'both Content-Length and Transfer-Encoding';
  // Transfer codings are case-insensitive (RFC 9112); any other coding or list is refused.
  if (encodings === 1 && encoding.toLowerCase() !== 'chunked') return 'a Transfer-Encoding other than chunked';
  return undefined;
}

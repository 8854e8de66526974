import type { HttpRequest } from 'uWebSockets.js';

/**
 * What is wrong with how a request frames its body, or undefined when nothing is. uWebSockets.js
 * reads the first of two Content-Length headers and parses any Transfer-Encoding as chunked, so a
 * request another parser (a proxy, a cache) frames differently could smuggle a second request in
 * its body: any framing two parsers could disagree on is refused.
 */
export function framingFault(req: HttpRequest): string | undefined {
  let lengths = 0;
  let encodings = 0;
  let encoding = '';
  req.forEach((name, value) => {
    if (name === 'content-length') lengths++;
    else if (name === 'transfer-encoding') {
      encodings++;
      encoding = value;
    }
  });
  if (lengths > 1) return 'more than one Content-Length header';
  if (encodings > 1) return 'more than one Transfer-Encoding header';
  if (encodings === 1 && lengths === 1) return 'both Content-Length and Transfer-Encoding';
  // Transfer codings are case-insensitive (RFC 9112); any other coding or list is refused.
  if (encodings === 1 && encoding.toLowerCase() !== 'chunked') return 'a Transfer-Encoding other than chunked';
  return undefined;
}

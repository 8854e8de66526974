import type { RecognizedString } from 'uWebSockets.js';

/** Bytes `body` takes on the wire. */
export function bodyLength(body: RecognizedString | undefined): number {
  if (body === undefined) return 0;
  return typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
}

import * as crypto from 'node:crypto';

/**
 * One-shot SHA-256 of bytes or of a string's UTF-8 (crypto.hash, Node >= 20.12; a Hash object
 * before that): no Hash object per call for the garbage collector to finalize.
 */
export const sha256: (data: string | Uint8Array, encoding: 'hex' | 'base64url') => string =
  typeof crypto.hash === 'function'
    ? (data, encoding) => crypto.hash('sha256', data, encoding)
    : (data, encoding) => crypto.createHash('sha256').update(data).digest(encoding);

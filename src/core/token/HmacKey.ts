import { createHash } from 'node:crypto';
import { sha256 } from '../sha256.js';

/** Part of a message: strings count as their UTF-8 bytes (as createHmac's update does). */
export type MacPart = string | Uint8Array;

const BLOCK = 64;
const DIGEST = 32;

/** (K xor ipad) || message, shared by every key: MACs are computed one at a time. */
let scratch = Buffer.alloc(BLOCK + 1024);

/** Writes `part` at `offset` of the scratch (growing it when needed); returns the offset after it. */
function put(part: MacPart, offset: number): number {
  const most = typeof part === 'string' ? part.length * 3 : part.length;
  if (offset + most > scratch.length) {
    const grown = Buffer.alloc(2 * (offset + most));
    scratch.copy(grown, 0, 0, offset);
    scratch = grown;
  }
  if (typeof part === 'string') return offset + scratch.write(part, offset, 'utf8');
  scratch.set(part, offset);
  return offset + part.length;
}

/**
 * An HMAC-SHA256 key (RFC 2104) with its padded blocks computed once. A MAC is two one-shot
 * SHA-256 calls over preallocated memory: about twice as fast as createHmac, and without a
 * native object per call for the garbage collector to finalize.
 */
export class HmacKey {
  readonly #ipad = Buffer.alloc(BLOCK, 0x36);
  /** (K xor opad) || inner digest. */
  readonly #outer = Buffer.alloc(BLOCK + DIGEST, 0x5c);

  constructor(key: string | Uint8Array) {
    let k: Uint8Array = typeof key === 'string' ? Buffer.from(key) : key;
    if (k.length > BLOCK) k = createHash('sha256').update(k).digest();
    for (let i = 0; i < k.length; i++) {
      this.#ipad[i]! ^= k[i]!;
      this.#outer[i]! ^= k[i]!;
    }
  }

  /** The MAC of the concatenation of `parts`, as lowercase hex or unpadded base64url. */
  digest(parts: MacPart | readonly MacPart[], encoding: 'hex' | 'base64url'): string {
    scratch.set(this.#ipad, 0);
    let end = BLOCK;
    if (typeof parts === 'string' || parts instanceof Uint8Array) end = put(parts, end);
    else for (const part of parts) end = put(part, end);
    this.#outer.write(sha256(scratch.subarray(0, end), 'hex'), BLOCK, 'hex');
    return sha256(this.#outer, encoding);
  }
}

/** HmacKeys of secrets in use, so each is prepared once. */
const prepared = new Map<string, HmacKey>();
const byBuffer = new WeakMap<Uint8Array, HmacKey>();
/** Bounds the cache when callers pass ever new secrets (verifyToken takes any). */
const MAX_PREPARED = 64;

/** The prepared HmacKey of a secret (a string's UTF-8 bytes, or the bytes of a buffer). */
export function hmacKey(secret: string | Uint8Array): HmacKey {
  if (typeof secret !== 'string') {
    let k = byBuffer.get(secret);
    if (k === undefined) byBuffer.set(secret, (k = new HmacKey(secret)));
    return k;
  }
  let k = prepared.get(secret);
  if (k === undefined) {
    if (prepared.size >= MAX_PREPARED) prepared.clear();
    prepared.set(secret, (k = new HmacKey(secret)));
  }
  return k;
}

import { createHash } from 'node:crypto';

/**
 * The first `words` 32-bit words of the SHA-256 of `text`, into `out`. A shared table keeps
 * these instead of variable-length keys. A collision between two keys can only make the
 * second look used (a refusal), never let anything be used twice; SHA-256 keeps a client from
 * choosing text that collides with another's.
 */
export function keyDigest(text: string, out: Int32Array, words: number): void {
  const d = createHash('sha256').update(text).digest();
  for (let i = 0; i < words; i++) out[i] = d.readInt32LE(4 * i);
}

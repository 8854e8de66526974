// The proof-of-work search loop (kernel.md section 5) over the kernel's resumable solver, in
// batches that yield to the event loop so that progress is reported and a cancel is heard.
import type { Kernel } from '../kernel/types.js';

export interface PowFound {
  nonce: number;
  hash: string;
}

/** Resolves on the next turn of the event loop, without the 4 ms clamp of nested timers. */
function nextTurn(): Promise<void> {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/** Leading zero bits of a lowercase hex digest. */
export function hexZeroBits(hex: string): number {
  let bits = 0;
  for (const c of hex) {
    const nibble = parseInt(c, 16);
    if (nibble !== 0) return bits + Math.clz32(nibble) - 28;
    bits += 4;
  }
  return bits;
}

/** Batches aim at this many milliseconds of hashing between yields. */
const SLICE_MS = 16;

/**
 * Searches nonces from 0 for every difficulty in `difficulties`, in one pass: a nonce meeting a
 * higher difficulty meets the lower ones too, so once the lowest missing one is found the search
 * goes on from the next nonce for the next. `found` is called once per difficulty, lowest first
 * (several times for one nonce that meets several). Ends when every difficulty is met, when
 * `cancelled()` turns true, or past 2^53 - 1.
 */
export async function searchPow(
  kernel: Kernel,
  challenge: string,
  difficulties: readonly number[],
  cancelled: () => boolean,
  progress: (tried: number) => void,
  found: (difficulty: number, proof: PowFound) => void,
): Promise<void> {
  const levels = [...new Set(difficulties)].sort((a, b) => a - b);
  let missing = 0;
  let from = 0;
  let batch = 512;
  while (missing < levels.length && !cancelled()) {
    const began = performance.now();
    const r = kernel.solvePow(challenge, levels[missing]!, from, batch);
    if (r.nonce !== null && r.hash !== null) {
      const bits = hexZeroBits(r.hash);
      for (; missing < levels.length && levels[missing]! <= bits; missing++) found(levels[missing]!, { nonce: r.nonce, hash: r.hash });
    } else if (r.next > Number.MAX_SAFE_INTEGER) {
      return;
    }
    from = r.next;
    progress(from);
    const spent = performance.now() - began;
    if (spent < SLICE_MS / 2 && batch < 1 << 20) batch *= 2;
    else if (spent > SLICE_MS * 2 && batch > 64) batch >>= 1;
    await nextTurn();
  }
}

/** Chance that a search of `tried` nonces has found one, shown as progress. */
export function powProgress(tried: number, difficulty: number): number {
  return 1 - Math.exp(-tried / 2 ** difficulty);
}

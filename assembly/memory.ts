// Memory regions shared by every export. Nothing here uses the managed heap: the module
// runs with the stub runtime and owns linear memory directly, so no call can leak or
// fragment it, and a refused call leaves every region as it was.

/** Bytes of the I/O buffer (challenge text, hash input chunks, PRNG output). */
export const IO_CAP: i32 = 65536;
/** Most events one call may carry (32 bytes each, plus 2 bytes of replay path). */
export const MAX_EVENTS: i32 = 1 << 20;
/** Bytes per packed event: x, y, t, type code as f64. */
export const EVENT_BYTES: i32 = 32;

const IO: usize = memory.data(IO_CAP, 16);
/** Up to 8 f64 results of the last call that returns more than one number. */
const RESULT: usize = memory.data(64, 16);
/** Digest of the last hash (32 bytes). */
export const DIGEST: usize = memory.data(32, 16);

/** Start of the growable region: the packed events, then whatever the last call put after them. */
export const EVENTS: usize = (__heap_base + 15) & ~(<usize>15);

export function ioPtr(): usize {
  return IO;
}

export function resultPtr(): usize {
  return RESULT;
}

export function digestPtr(): usize {
  return DIGEST;
}

@inline export function setResult(i: i32, v: f64): void {
  store<f64>(RESULT + (<usize>i << 3), v);
}

/** Grows memory so that [0, end) is addressable; false when the host refuses. */
export function ensureHeap(end: usize): bool {
  const have = <usize>memory.size() << 16;
  if (end <= have) return true;
  const pages = <i32>((end - have + 0xffff) >>> 16);
  return memory.grow(pages) >= 0;
}

/**
 * Reserves room for `count` packed events (and replay's plain-walk cells after them) and
 * returns the events pointer, or 0 when count is out of range or memory cannot grow.
 */
export function eventsPtr(count: i32): usize {
  if (count < 0 || count > MAX_EVENTS) return 0;
  const end = EVENTS + <usize>count * (EVENT_BYTES + 2);
  return ensureHeap(end) ? EVENTS : 0;
}

/**
 * Where replay's scratch begins for a call over `count` events: the plain walk's cells (u16, at
 * most one per event), then the segment walk's (replay grows memory for them as needed).
 */
export function pathPtr(count: i32): usize {
  return EVENTS + <usize>count * EVENT_BYTES;
}

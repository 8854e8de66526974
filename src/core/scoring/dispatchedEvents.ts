import type { RawEvent } from '../../kernel/types.js';

/** Largest batch read as coalesced: a 1000 Hz device over a 30 Hz frame is about 33 reports. */
const MAX_BATCH = 64;

/**
 * The pointer events a browser dispatched, without the reports coalesced before each: a run of
 * `n` consecutive moves carrying `coalesced_count: n` (Ariadne's widget sends each pointermove's
 * getCoalescedEvents() that way, the dispatched position last) is read as one move, its last.
 * The scorer is calibrated on dispatched events (one a frame, or a 10 to 16 ms poll); a device
 * reporting at 125 to 1000 Hz would otherwise put the timing and roughness features where no
 * calibration trace is. Path replay still walks every event. A run that does not match its
 * count is kept whole. Returns `events` itself when nothing is coalesced.
 */
export function dispatchedEvents(events: readonly RawEvent[]): readonly RawEvent[] {
  let out: RawEvent[] | undefined;
  for (let i = 0; i < events.length; ) {
    const n = batchAt(events, i);
    if (n > 1) out ??= events.slice(0, i);
    if (out) out.push(events[i + n - 1]!);
    i += n;
  }
  return out ?? events;
}

/** Events of the coalesced batch that starts at `i`: its count when the run matches it, else 1. */
function batchAt(events: readonly RawEvent[], i: number): number {
  const n = countOf(events[i]);
  if (n < 2 || i + n > events.length) return 1;
  for (let k = i + 1; k < i + n; k++) if (countOf(events[k]) !== n) return 1;
  return n;
}

function countOf(e: RawEvent | undefined): number {
  if (e === null || typeof e !== 'object' || e.type !== 'move') return 0;
  const n = e.coalesced_count;
  return typeof n === 'number' && Number.isInteger(n) && n <= MAX_BATCH ? n : 0;
}

import type { RawEvent } from '../../src/kernel/types.js';

/**
 * `events` as Ariadne's widget would send them from a device reporting every `reportMs`: each
 * move after the first becomes the batch of its pointermove's coalesced reports, positions and
 * times interpolated from the move before, the dispatched move itself last, every report of a
 * batch carrying `coalesced_count` = the batch's size (at most `maxBatch`).
 */
export function coalescedReports(events: readonly RawEvent[], reportMs: number, maxBatch = 32): RawEvent[] {
  const out: RawEvent[] = [];
  let prev: RawEvent | undefined;
  for (const e of events) {
    if (e.type !== 'move' || prev === undefined) {
      out.push(e);
      prev = e;
      continue;
    }
    const n = Math.max(1, Math.min(maxBatch, Math.round((e.t - prev.t) / reportMs)));
    for (let k = 1; k < n; k++) {
      const f = k / n;
      const at = (a: number, b: number) => a + (b - a) * f;
      out.push({ ...e, x: at(prev.x, e.x), y: at(prev.y, e.y), t: at(prev.t, e.t), coalesced_count: n });
    }
    out.push({ ...e, coalesced_count: n });
    prev = e;
  }
  return out;
}

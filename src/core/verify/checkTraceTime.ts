import type { RawEvent } from '../../kernel/types.js';

/**
 * Slack, in ms, between a trace's span and the time the server saw. It covers what can make an
 * honest trace look longer than the server's interval: browsers coarsen event timestamps (to
 * 100 ms under some privacy settings, so a span can read up to about 200 ms long), and the
 * node that issued the challenge and the one verifying it read different clocks (NTP keeps
 * them within a few ms). A script that claims more tracing than that is refused.
 */
export const TRACE_TIME_TOLERANCE_MS = 250;

/**
 * The time the server saw must cover the trace: the span of its events (latest minus earliest
 * `t`, so reordering hides nothing) must not exceed the time from the challenge's creation to
 * this /verify, plus TRACE_TIME_TOLERANCE_MS. Returns undefined when it fits, else a detail.
 * A non-finite `t` (possible only in-process: JSON carries none) makes the span unknowable
 * and is refused.
 */
export function checkTraceTime(events: readonly RawEvent[], createdAt: number, now: number): string | undefined {
  let first = Infinity;
  let last = -Infinity;
  for (const e of events) {
    if (e === null || typeof e !== 'object') continue;
    const t = e.t;
    if (typeof t !== 'number' || !Number.isFinite(t)) return 'an event time is not a finite number';
    if (t < first) first = t;
    if (t > last) last = t;
  }
  if (last < first) return undefined;
  const span = last - first;
  const seen = now - createdAt;
  if (span <= seen + TRACE_TIME_TOLERANCE_MS) return undefined;
  return `the events span ${Math.round(span)} ms, the challenge was issued ${Math.max(0, Math.round(seen))} ms before this request`;
}

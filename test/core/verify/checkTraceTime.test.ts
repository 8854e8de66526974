import { describe, expect, it } from 'vitest';
import { TRACE_TIME_TOLERANCE_MS, checkTraceTime } from '../../../src/core/verify/checkTraceTime.js';
import type { RawEvent } from '../../../src/kernel/types.js';

const at = (...ts: number[]): RawEvent[] => ts.map((t) => ({ x: 0.5, y: 0.5, t, type: 'move' }));
const CREATED = 1_800_000_000_000;

describe('checkTraceTime', () => {
  it('lets a span fit the time seen plus the tolerance, to the millisecond', () => {
    const span = 8_000;
    const events = at(100, 100 + span);
    expect(TRACE_TIME_TOLERANCE_MS).toBe(250);
    expect(checkTraceTime(events, CREATED, CREATED + span - TRACE_TIME_TOLERANCE_MS)).toBeUndefined();
    expect(checkTraceTime(events, CREATED, CREATED + span - TRACE_TIME_TOLERANCE_MS - 1)).toBe(
      'the events span 8000 ms, the challenge was issued 7749 ms before this request',
    );
    // A script claiming 8 s of tracing one second after the challenge was issued.
    expect(checkTraceTime(events, CREATED, CREATED + 1_000)).toMatch(/^the events span 8000 ms/);
  });

  it('measures the span as latest minus earliest, whatever the order', () => {
    // Out of order, the first and last events are 10 ms apart but the trace covers 9 s.
    const events = at(5_000, -4_000, 4_990, 5_010);
    expect(checkTraceTime(events, CREATED, CREATED + 1_000)).toMatch(/span 9010 ms/);
    expect(checkTraceTime(events, CREATED, CREATED + 9_010 - 250)).toBeUndefined();
  });

  it('refuses an event time that is not a finite number, and huge spans', () => {
    for (const t of [NaN, Infinity, -Infinity, '5' as unknown as number, undefined as unknown as number]) {
      expect(checkTraceTime(at(0, 10).concat({ x: 0, y: 0, t, type: 'move' }), CREATED, CREATED + 60_000)).toBe(
        'an event time is not a finite number',
      );
    }
    expect(checkTraceTime(at(0, 1e300), CREATED, CREATED + 60_000)).toMatch(/^the events span 1e\+300 ms/);
    expect(checkTraceTime(at(-Number.MAX_VALUE, Number.MAX_VALUE), CREATED, CREATED + 60_000)).toMatch(/^the events span Infinity ms/);
  });

  it('passes an empty trace, a single event, and skips entries that are not objects', () => {
    expect(checkTraceTime([], CREATED, CREATED)).toBeUndefined();
    expect(checkTraceTime(at(123_456), CREATED, CREATED)).toBeUndefined();
    expect(checkTraceTime([null as unknown as RawEvent, ...at(0, 200)], CREATED, CREATED)).toBeUndefined();
  });

  it('treats a challenge from the future (clock skew) as issued no time ago', () => {
    expect(checkTraceTime(at(0, 300), CREATED, CREATED - 100)).toBe(
      'the events span 300 ms, the challenge was issued 0 ms before this request',
    );
    expect(checkTraceTime(at(0, 150), CREATED, CREATED - 100)).toBeUndefined();
  });
});

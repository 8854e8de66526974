import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { dispatchedEvents } from '../../../src/core/scoring/dispatchedEvents.js';
import type { RawEvent } from '../../../src/kernel/types.js';
import { coalescedReports } from '../../helpers/coalescedReports.js';

const move = (t: number, coalesced_count?: number): RawEvent => ({
  x: t / 100,
  y: 0.5,
  t,
  type: 'move',
  ...(coalesced_count === undefined ? {} : { coalesced_count }),
});

describe('dispatchedEvents', () => {
  it('returns the same array when no event is coalesced (the deployed widget, scripts, keyboard)', () => {
    const events = [{ ...move(0), type: 'down' }, move(16), move(33, 1), { ...move(40), type: 'up' }];
    expect(dispatchedEvents(events)).toBe(events);
  });

  it('keeps the last report of each coalesced batch, and every other event', () => {
    const events = [
      { ...move(0), type: 'down' },
      move(4, 3),
      move(8, 3),
      move(12, 3),
      move(16, 1),
      move(20, 2),
      move(24, 2),
      move(28, 2),
      move(32, 2),
      { ...move(32), type: 'up' },
    ];
    expect(dispatchedEvents(events).map((e) => e.t)).toEqual([0, 12, 16, 24, 32, 32]);
  });

  it('keeps whole a run that does not match its count, or a count out of range', () => {
    const short = [move(0), move(4, 3), move(8, 3), { ...move(8), type: 'up' }];
    expect(dispatchedEvents(short)).toBe(short);
    const mixed = [move(4, 3), move(8, 2), move(12, 3)];
    expect(dispatchedEvents(mixed)).toBe(mixed);
    const odd = [move(4, 1.5), move(8, 1.5), move(12, 65), move(13, -2), move(14, NaN)];
    expect(dispatchedEvents(odd)).toBe(odd);
    const huge = Array.from({ length: 65 }, (_, i) => move(i, 65));
    expect(dispatchedEvents(huge)).toBe(huge);
  });

  it('recovers the dispatched moves from their coalesced reports, whatever the device rate', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 60 }), { minLength: 1, maxLength: 60 }),
        fc.constantFrom(1, 2, 4, 8),
        (gaps, reportMs) => {
          let t = 0;
          const events: RawEvent[] = [{ ...move(0), type: 'down' }, ...gaps.map((g) => move((t += g))), { ...move(t), type: 'up' }];
          const sent = coalescedReports(events, reportMs);
          expect(dispatchedEvents(sent).map(({ x, y, t, type }) => ({ x, y, t, type }))).toEqual(
            events.map(({ x, y, t, type }) => ({ x, y, t, type })),
          );
        },
      ),
    );
  });
});

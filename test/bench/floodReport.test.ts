import { describe, expect, it } from 'vitest';
import { BENCH_MINUTE_MS, PHASES } from '../../bench/keyboardFlood/floodPlan.js';
import { type DoorReading, type FloodOutcome, floodReport } from '../../bench/keyboardFlood/floodReport.js';

const M = BENCH_MINUTE_MS;
const floodFrom = PHASES.before * M;
const floodTo = (PHASES.before + PHASES.flood) * M;

describe('floodReport', () => {
  it("counts the scripts' tokens per minute of the flood against the baseline, the escalation's times, and people by the door they met", () => {
    const outcomes: FloodOutcome[] = [
      // 30 script tokens over the 10-minute flood (and refusals, which do not count).
      ...Array.from({ length: 30 }, (_, i) => ({
        kind: 'script',
        fetchedAt: floodFrom,
        submittedAt: floodFrom + i * 1000,
        ok: true,
        method: 'keyboard',
      })),
      ...Array.from({ length: 50 }, () => ({
        kind: 'script',
        fetchedAt: floodFrom,
        submittedAt: floodFrom + 5_000,
        ok: false,
        error: 'behavioral_rejected',
      })),
      // People: one before, one straddling the escalation's start (counted nowhere), one in it, one after it.
      { kind: 'sighted', fetchedAt: 0, submittedAt: M, ok: true, method: 'keyboard' },
      { kind: 'sighted', fetchedAt: floodFrom - M, submittedAt: floodFrom + M, ok: true, method: 'keyboard' },
      { kind: 'switch-scan', fetchedAt: floodFrom + 2 * M, submittedAt: floodFrom + 3 * M, ok: false, error: 'behavioral_rejected' },
      { kind: 'sighted', fetchedAt: floodTo + 5 * M, submittedAt: floodTo + 6 * M, ok: true, method: 'keyboard' },
    ];
    const doors: DoorReading[] = [0, 1].flatMap((node) => [
      { t: 0, node, door: 'people_first' },
      { t: floodFrom + 0.25 * M, node, door: 'surge' },
      { t: floodTo + 3 * M, node, door: 'surge' },
      { t: floodTo + 3.5 * M, node, door: 'people_first' },
    ]);
    const { rows, notes } = floodReport(outcomes, doors);
    expect(rows.find((r) => r.name === 'scripts, flood')).toMatchObject({
      submitted: 80,
      tokens: 30,
      tokens_per_minute: 3,
      x_baseline: 0.5, // 3 tokens a minute against the plan's baseline of 6
    });
    expect(rows.find((r) => r.name === 'keyboard people (sighted MODEL), before the flood')).toMatchObject({ submitted: 1, accepted: 1 });
    expect(rows.find((r) => r.name === 'keyboard people (switch-scan MODEL), in the escalation')).toMatchObject({
      submitted: 1,
      accepted: 0,
      refusals: 'behavioral_rejected',
    });
    expect(rows.find((r) => r.name === 'keyboard people (sighted MODEL), after the escalation')).toMatchObject({
      submitted: 1,
      accepted: 1,
    });
    expect(rows.filter((r) => String(r.name).startsWith('keyboard people (sighted')).map((r) => r.submitted)).toEqual([1, 1]);
    expect(rows.find((r) => r.name === 'node 2: escalation')).toMatchObject({
      began_min_after_flood_began: 0.25,
      ended_min_after_flood_ended: 3.5,
    });
    expect((notes ?? []).join('\n')).toContain('time compressed');
  });
});

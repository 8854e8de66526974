import { describe, expect, it } from 'vitest';
import { KEYBOARD_DOOR_DEFAULTS } from '../../../src/core/keyboard/KeyboardDoorPolicy.js';
import { BASELINE_RISE_PER_HOUR, learnBaseline } from '../../../src/core/keyboard/learnBaseline.js';
import { nextSurge, type SurgeState } from '../../../src/core/keyboard/nextSurge.js';
import { SHARE_FLOOR, surgeLevels } from '../../../src/core/keyboard/surgeLevels.js';

const POLICY = KEYBOARD_DOOR_DEFAULTS; // floor 2/min, factor 3, calm 2 minutes
const M = 60_000;
const CALM: SurgeState = { surge: false, since: 0, calmSince: undefined };

describe('surgeLevels', () => {
  it('is the factor times the baseline, never below the floors, the share at most 0.9', () => {
    expect(surgeLevels({ rate: 10, share: 0.1 }, POLICY)).toEqual({ rate: 30, share: expect.closeTo(0.3, 12) });
    expect(surgeLevels({ rate: 0.5, share: 0.01 }, POLICY)).toEqual({ rate: 6, share: expect.closeTo(3 * SHARE_FLOOR, 12) });
    expect(surgeLevels({ rate: 10, share: 0.5 }, POLICY).share).toBe(0.9);
  });
});

describe('nextSurge', () => {
  const base = { rate: 10, share: 0.1 }; // levels: 30 a minute, a share of 0.3

  it('begins only above both levels: at a level, or above one alone, it does not', () => {
    expect(nextSurge(CALM, { rate: 30, share: 0.9 }, base, POLICY, 1, M).surge).toBe(false);
    expect(nextSurge(CALM, { rate: 31, share: 0.3 }, base, POLICY, 1, M).surge).toBe(false);
    expect(nextSurge(CALM, { rate: 1000, share: 0.2 }, base, POLICY, 1, M).surge).toBe(false); // the whole site grew
    expect(nextSurge(CALM, { rate: 30.01, share: 0.31 }, base, POLICY, 5, M)).toEqual({ surge: true, since: 5, calmSince: undefined });
  });

  it('ends once at or under two thirds of a level for calm_minutes, to the millisecond; a busy reading starts the calm again', () => {
    const t0 = 1_000_000;
    let s: SurgeState = { surge: true, since: 0, calmSince: undefined };
    s = nextSurge(s, { rate: 20.01, share: 0.9 }, base, POLICY, t0, M); // above two thirds of both: not calm
    expect(s).toEqual({ surge: true, since: 0, calmSince: undefined });
    s = nextSurge(s, { rate: 20, share: 0.9 }, base, POLICY, t0, M); // at two thirds of the rate: calm from now
    expect(s.calmSince).toBe(t0);
    expect(nextSurge(s, { rate: 0, share: 0 }, base, POLICY, t0 + 2 * M - 1, M).surge).toBe(true);
    expect(nextSurge(s, { rate: 0, share: 0 }, base, POLICY, t0 + 2 * M, M)).toEqual({
      surge: false,
      since: t0 + 2 * M,
      calmSince: undefined,
    });
    const again = nextSurge(s, { rate: 40, share: 0.5 }, base, POLICY, t0 + M, M);
    expect(again.calmSince).toBeUndefined();
    expect(nextSurge(again, { rate: 0, share: 0 }, base, POLICY, t0 + 2 * M, M)).toMatchObject({ surge: true, calmSince: t0 + 2 * M });
    // A share at or under two thirds of its level is calm too: the keyboard tokens are a small part again.
    expect(nextSurge({ surge: true, since: 0, calmSince: undefined }, { rate: 100, share: 0.2 }, base, POLICY, t0, M).calmSince).toBe(t0);
    expect(
      nextSurge({ surge: true, since: 0, calmSince: undefined }, { rate: 100, share: 0.21 }, base, POLICY, t0, M).calmSince,
    ).toBeUndefined();
  });
});

describe('learnBaseline', () => {
  it('rises at most 25% an hour, however high the traffic under the surge level', () => {
    let base = { rate: 10, share: 0.1 };
    for (let m = 0; m < 60; m++) base = learnBaseline(base, { keyboard: 29, all: 100 }, POLICY);
    expect(base.rate).toBeLessThanOrEqual(10 * BASELINE_RISE_PER_HOUR + 1e-9);
    expect(base.rate).toBeGreaterThan(10 * 1.04); // it does learn
    expect(base.share).toBeLessThanOrEqual(0.1 * BASELINE_RISE_PER_HOUR + 1e-9);
  });

  it('a slow ramp of scripts kept under the surge level takes hours to double it', () => {
    let base = { rate: 10, share: 0.1 };
    let minutes = 0;
    // The ramp always sends just under the current surge level.
    while (base.rate < 20 && minutes < 24 * 60) {
      const level = surgeLevels(base, POLICY);
      base = learnBaseline(base, { keyboard: level.rate * 0.99, all: (level.rate * 0.99) / (level.share * 0.99) }, POLICY);
      minutes++;
    }
    expect(minutes).toBeGreaterThanOrEqual(Math.floor((60 * Math.log(2)) / Math.log(BASELINE_RISE_PER_HOUR)));
  });

  it('a burst counts no more than the surge level, falls freely, and never goes under the floors', () => {
    const burst = learnBaseline({ rate: 100, share: 0.5 }, { keyboard: 1e9, all: 1e9 }, POLICY);
    expect(burst.rate).toBeCloseTo(100 * BASELINE_RISE_PER_HOUR ** (1 / 60), 9);
    const smallFactor = { ...POLICY, surgeFactor: 1.5 }; // level 150: a step of 50/360, under the hour's bound
    expect(learnBaseline({ rate: 100, share: 0.5 }, { keyboard: 1e9, all: 1e9 }, smallFactor).rate).toBeCloseTo(100 + 50 / 360, 9);
    let base = { rate: 100, share: 0.5 };
    for (let m = 0; m < 6 * 60; m++) base = learnBaseline(base, { keyboard: 0, all: 10 }, POLICY);
    expect(base.rate).toBeLessThan(100 * 0.4); // an e-fold in the 6-hour time constant
    for (let m = 0; m < 100 * 60; m++) base = learnBaseline(base, { keyboard: 0, all: 10 }, POLICY);
    expect(base).toEqual({ rate: POLICY.floorPerMinute, share: SHARE_FLOOR });
    // A minute with no tokens at all leaves the share as it was.
    expect(learnBaseline({ rate: 5, share: 0.2 }, { keyboard: 0, all: 0 }, POLICY).share).toBe(0.2);
  });
});

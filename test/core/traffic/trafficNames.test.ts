import { describe, expect, it } from 'vitest';
import { LATENCY_BOUNDS_MS, latencyBucket, scoreBucket, SCORE_BUCKETS } from '../../../src/core/traffic/trafficNames.js';

describe('latency buckets', () => {
  it('are log-scale, sqrt 2 apart, from 0.25 ms', () => {
    expect(LATENCY_BOUNDS_MS[0]).toBe(0.25);
    for (let i = 1; i < LATENCY_BOUNDS_MS.length; i++)
      expect(LATENCY_BOUNDS_MS[i]! / LATENCY_BOUNDS_MS[i - 1]!).toBeCloseTo(Math.SQRT2, 12);
  });

  it('put a latency in the first bucket whose bound holds it (bounds inclusive), past the last bound in one more', () => {
    expect(latencyBucket(0)).toBe(0);
    expect(latencyBucket(0.25)).toBe(0);
    expect(latencyBucket(0.2501)).toBe(1);
    expect(latencyBucket(1)).toBe(4);
    expect(latencyBucket(1.0001)).toBe(5);
    const last = LATENCY_BOUNDS_MS.length - 1;
    expect(latencyBucket(LATENCY_BOUNDS_MS[last]!)).toBe(last);
    expect(latencyBucket(LATENCY_BOUNDS_MS[last]! + 1)).toBe(last + 1);
    expect(latencyBucket(Infinity)).toBe(last + 1);
  });
});

describe('score buckets', () => {
  it('split [0, 1] in equal tenths, 1 in the last', () => {
    expect(SCORE_BUCKETS).toBe(10);
    expect([0, 0.0999, 0.1, 0.55, 0.9999, 1].map(scoreBucket)).toEqual([0, 0, 1, 5, 9, 9]);
  });
});

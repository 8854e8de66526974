import { describe, expect, it } from 'vitest';
import { MAX_POW_DIFFICULTY } from '../../src/core/sites/SitePolicy.js';
import { Metrics } from '../../src/http/metrics.js';
import { metricSum } from '../helpers/metricSum.js';

/** The `le` bounds and cumulative counts of one histogram series, in the order printed. */
function buckets(text: string, name: string, labels: Record<string, string>): [string, number][] {
  const bounds = [...text.matchAll(new RegExp(`^${name}_bucket\\{le="([^"]+)"`, 'gm'))].map((m) => m[1]!);
  return [...new Set(bounds)].map((le) => [le, metricSum(text, `${name}_bucket`, { le, ...labels })!]);
}

describe('Metrics', () => {
  it('prints request durations as a cumulative histogram per route, with its count and sum', async () => {
    const metrics = new Metrics();
    const challenge = metrics.route('/challenge');
    const longAgo = performance.now() - 5_000;
    for (let i = 0; i < 7; i++) challenge.observe(200, performance.now(), undefined);
    challenge.observe(400, longAgo, 'invalid_request');
    metrics.route('/verify').observe(200, performance.now(), undefined);
    const text = await metrics.registry.metrics();

    const series = buckets(text, 'ariadne_http_request_duration_seconds', { route: '/challenge' });
    expect(series.at(-1)).toEqual(['+Inf', 8]);
    // The 5 s answer is in +Inf alone: every finite bucket holds the 7 quick ones at most.
    expect(series.slice(0, -1).every(([, n]) => n <= 7)).toBe(true);
    expect(series.map(([, n]) => n)).toEqual([...series.map(([, n]) => n)].sort((a, b) => a - b));
    expect(metricSum(text, 'ariadne_http_request_duration_seconds_count', { route: '/challenge' })).toBe(8);
    expect(metricSum(text, 'ariadne_http_request_duration_seconds_sum', { route: '/challenge' })).toBeGreaterThan(5);
    expect(metricSum(text, 'ariadne_http_request_duration_seconds_count', { route: '/verify' })).toBe(1);
    expect(metricSum(text, 'ariadne_failures_total', { route: '/challenge', code: 'invalid_request' })).toBe(1);
  });

  it('prints the difficulties issued as a histogram of one bucket per bit, with their count and sum', async () => {
    const metrics = new Metrics({ thread: '2' });
    for (const bits of [18, 18, 19, 22, MAX_POW_DIFFICULTY]) metrics.powIssued(bits);
    const text = await metrics.registry.metrics();

    const series = buckets(text, 'ariadne_pow_difficulty', { thread: '2' });
    expect(series).toHaveLength(MAX_POW_DIFFICULTY + 2);
    expect(Object.fromEntries(series)).toMatchObject({
      '17': 0,
      '18': 2,
      '19': 3,
      '21': 3,
      '22': 4,
      [MAX_POW_DIFFICULTY - 1]: 4,
      [MAX_POW_DIFFICULTY]: 5,
      '+Inf': 5,
    });
    expect(metricSum(text, 'ariadne_pow_difficulty_count', { thread: '2' })).toBe(5);
    expect(metricSum(text, 'ariadne_pow_difficulty_sum', { thread: '2' })).toBe(18 + 18 + 19 + 22 + MAX_POW_DIFFICULTY);
  });
});

import { describe, expect, it } from 'vitest';
import { report } from '../../bench/http/report.js';

const counts = { challengeFlood: 1, ceiling: 1, verify: 1, siteverifyValid: 1, siteverifyInvalid: 1 };
const regressions = (baseline: Record<string, number>, now: Record<string, number>) =>
  report({ ...now }, [], { quick: false, loadAverage: 0, counts, baseline, stages: undefined }).regressions;

describe('the HTTP report against its baseline', () => {
  it('flags CPU per request that grew, per route and per thread count of the whole-machine run', () => {
    for (const metric of ['verify_cpu_us', 'scaling_verify_cpu_us_1', 'scaling_verify_cpu_us_n']) {
      expect(regressions({ [metric]: 400 }, { [metric]: 500 }), metric).toHaveLength(1);
      // Less CPU per request is better: not a regression.
      expect(regressions({ [metric]: 600 }, { [metric]: 400 }), metric).toEqual([]);
    }
  });

  it('flags rates that fell, and never the CPU shares that describe the run', () => {
    expect(regressions({ scaling_ratio: 0.6 }, { scaling_ratio: 0.4 })).toHaveLength(1);
    expect(regressions({ scaling_ratio: 0.4 }, { scaling_ratio: 0.6 })).toEqual([]);
    for (const metric of ['verify_cpu_pct', 'scaling_verify_cpu_pct_n', 'scaling_wrk_cpu_pct_n']) {
      expect(regressions({ [metric]: 90 }, { [metric]: 20 }), metric).toEqual([]);
    }
  });
});

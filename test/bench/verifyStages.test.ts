import { describe, expect, it } from 'vitest';
import { report } from '../../bench/http/report.js';
import { STAGES, measureVerifyStages, type StageResult } from '../../bench/verifyStages.js';

const counts = { challengeFlood: 1, ceiling: 1, verify: 1, siteverifyValid: 1, siteverifyInvalid: 1 };

describe('the /verify stage account', () => {
  // The core's stages come from verifySubmission's own observer: the run throws when one of them
  // ends out of order or never ends, or when a request is refused (its answer is not a 200).
  it('observes every stage of valid submissions, in order, and sums them', async () => {
    // Enough requests that the loop spans many of /proc's 10 ms CPU ticks: with a dozen it could
    // span none, and every figure read 0.
    const r = await measureVerifyStages({ requests: 150, warmUp: 10 });
    expect(r.events).toBeGreaterThan(10);
    expect(STAGES).toHaveLength(21);
    expect(STAGES.slice(3, 5)).toEqual(['site and origin', 'id authentication (and passkey shape)']);
    expect(STAGES.at(-1)).toBe('metrics');
    expect(r.stagesUs).toHaveLength(STAGES.length);
    for (const us of r.stagesUs) expect(us).toBeGreaterThanOrEqual(0);
    expect(r.sumUs).toBeCloseTo(r.stagesUs.reduce((a, b) => a + b, 0) + r.gcUs, 6);
    // The stages cover each staged request from its start to its end: nothing is left outside.
    expect(r.coveredShare).toBeGreaterThan(0.9);
    expect(r.coveredShare).toBeLessThanOrEqual(1);
    expect(r.routeUs).toBeGreaterThan(0);
  });

  it('makes traces of the asked length', async () => {
    const r = await measureVerifyStages({ requests: 2, warmUp: 1, events: 2_000 });
    expect(r.events).toBeGreaterThanOrEqual(2_000);
    expect(r.events).toBeLessThan(2_100);
  });

  it('accounts the measured CPU as the whole route in process, the bare app and the server helper threads', () => {
    const stage: StageResult = {
      events: 50,
      bodyBytes: 5_000,
      requests: 1,
      stagesUs: STAGES.map(() => 10),
      gcUs: 20,
      sumUs: 230,
      coveredShare: 1,
      routeUs: 390,
      helpersUs: 40,
    };
    const metrics = { verify_cpu_us: 500, ceiling_verify_cpu_us: 10, verify_helpers_us: 50 };
    const r = report(metrics, [], { quick: true, loadAverage: 0, counts, baseline: undefined, stages: { bench: stage, long: stage } });
    const row = (name: string) => r.section.rows.find((x) => x.name === name);
    const label = 'µs/req, 50 events (5 KB)';
    expect(row('whole route in process + bare app + server helper threads')?.[label]).toBe(450);
    expect(row('not accounted for (measured - the line above)')?.[label]).toBe(50);
    expect(row('accounted / measured')?.[label]).toBeCloseTo(0.9, 9);
  });
});

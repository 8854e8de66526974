import { describe, expect, it } from 'vitest';
import { report } from '../../bench/http/report.js';
import { STAGES, measureVerifyStages, type StageResult } from '../../bench/verifyStages.js';

const counts = { challengeFlood: 1, ceiling: 1, verify: 1, siteverifyValid: 1, siteverifyInvalid: 1 };

describe('the /verify stage account', () => {
  it('runs every stage of valid submissions (each stage throws on a refusal) and sums them', async () => {
    const r = await measureVerifyStages({ requests: 12, warmUp: 4 });
    expect(r.events).toBeGreaterThan(10);
    expect(r.stagesUs).toHaveLength(STAGES.length);
    for (const us of r.stagesUs) expect(us).toBeGreaterThanOrEqual(0);
    expect(r.sumUs).toBeCloseTo(r.stagesUs.reduce((a, b) => a + b, 0) + r.gcUs, 6);
    expect(r.routeUs).toBeGreaterThan(0);
  });

  it('makes traces of the asked length', async () => {
    const r = await measureVerifyStages({ requests: 2, warmUp: 1, events: 2_000 });
    expect(r.events).toBeGreaterThanOrEqual(2_000);
    expect(r.events).toBeLessThan(2_100);
  });

  it('accounts the measured CPU as the whole route in process, the bare app and the server helper threads', () => {
    const stage: StageResult = { events: 50, bodyBytes: 5_000, requests: 1, stagesUs: STAGES.map(() => 10), gcUs: 20, sumUs: 230, routeUs: 390, helpersUs: 40 };
    const metrics = { verify_cpu_us: 500, ceiling_verify_cpu_us: 10, verify_helpers_us: 50 };
    const r = report(metrics, [], { quick: true, loadAverage: 0, counts, baseline: undefined, stages: { bench: stage, long: stage } });
    const row = (name: string) => r.section.rows.find((x) => x.name === name);
    const label = 'µs/req, 50 events (5 KB)';
    expect(row('whole route in process + bare app + server helper threads')?.[label]).toBe(450);
    expect(row('not accounted for (measured - the line above)')?.[label]).toBe(50);
    expect(row('accounted / measured')?.[label]).toBeCloseTo(0.9, 9);
  });
});

import { describe, expect, it } from 'vitest';
import { type Turn, clusterReport } from '../../bench/cluster/report.js';

const turn = (setup: Turn['setup'], nodeCpuSeconds: number, more: Partial<Turn> = {}): Turn => ({
  setup,
  requests: 1_000,
  errors: 0,
  seconds: 1,
  nodeCpuSeconds,
  redisCpuSeconds: setup === 'Cluster' ? 0.04 : 0.02,
  redisCalls: setup === 'Cluster' ? 3_500 : 2_700,
  ...more,
});

describe('the cluster bench report', () => {
  const turns = [turn('one Redis', 0.5), turn('Cluster', 0.6), turn('one Redis', 0.7), turn('Cluster', 0.8)];

  it('shows each turn in order, each setup over its turns, and the ratio of /verify per CPU-second', () => {
    const r = clusterReport(turns, []);
    const names = r.section.rows.map((row) => row.name);
    expect(names).toEqual([
      'turn 1: one Redis',
      'turn 2: Cluster',
      'turn 3: one Redis',
      'turn 4: Cluster',
      'one Redis, 2 turns',
      'Cluster, 2 turns',
      'Cluster / one Redis, per CPU-second of the nodes',
    ]);
    expect(r.section.rows[1]).toMatchObject({
      requests: 1_000,
      verify_per_cpu_s: 1_000 / 0.6,
      node_cpu_us: 600,
      script_calls_per_verify: 3.5,
    });
    expect(r.section.rows[1]!.redis_cpu_us).toBeCloseTo(40, 9);
    // 2,000 answers over 1.2 s of the nodes' CPU, and over 1.4 s.
    expect(r.metrics.one_redis_verify_per_cpu_s).toBeCloseTo(2_000 / 1.2, 9);
    expect(r.metrics.cluster_verify_per_cpu_s).toBeCloseTo(2_000 / 1.4, 9);
    expect(r.metrics.ratio).toBeCloseTo(1.2 / 1.4, 9);
    expect(r.target).toMatchObject({ target: '>= 0.9', pass: false });
    expect(r.section.rows.at(-1)).toMatchObject({ met: 'NO' });
  });

  it('meets the target at 0.9 and above, and never with answers not as expected', () => {
    expect(clusterReport([turn('one Redis', 0.9), turn('Cluster', 1)], []).target.pass).toBe(true);
    const failed = clusterReport(
      [turn('one Redis', 1), turn('Cluster', 1, { errors: 3, firstError: '503 {"error_code":"store_unavailable"}' })],
      [],
    );
    expect(failed.target.pass).toBe(false);
    expect(failed.errors).toEqual(['3 of 2000 /verify not as expected (first: 503 {"error_code":"store_unavailable"})']);
    expect(failed.section.notes).toContain(`error: ${failed.errors[0]}`);
  });

  it('refuses a run that lacks a setup', () => {
    expect(() => clusterReport([turn('one Redis', 1)], [])).toThrow(/no turn of Cluster/);
  });
});

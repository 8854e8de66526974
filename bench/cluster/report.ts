/**
 * What the cluster bench reports: each turn's figures, each setup's totals over its turns, and
 * the ratio of the two setups' /verify per CPU-second of the Ariadne nodes, judged against the
 * target.
 */
import type { Row, Section } from '../section.js';

/** The two setups, in the order they take turns. */
export const SETUPS = ['one Redis', 'Cluster'] as const;
export type Setup = (typeof SETUPS)[number];

/** Cluster /verify per CPU-second of the nodes over one Redis's, in the same run: at least this. */
export const TARGET_RATIO = 0.9;

/** One turn: one setup's two nodes driven at once with their share of the bodies. */
export interface Turn {
  setup: Setup;
  /** Answers counted over both nodes. */
  requests: number;
  /** Answers not as expected (not 200 with success true), socket errors and answers missing. */
  errors: number;
  /** The first answer not as expected, if any (status and the start of its body). */
  firstError?: string | undefined;
  /** Wall time of the turn: from the first request sent to the last answer of the slower node. */
  seconds: number;
  /** CPU time of the two Ariadne nodes together through the turn. */
  nodeCpuSeconds: number;
  /** CPU time of the Redis processes of the setup (INFO cpu, user + system) through the turn. */
  redisCpuSeconds: number;
  /** Script calls those Redis processes received through the turn (EVALSHA and EVAL). */
  redisCalls: number;
}

export interface ClusterBenchResult {
  turns: Turn[];
  /** Per setup over its turns, and `ratio`: Cluster over one Redis of `verify_per_cpu_s`. */
  metrics: Record<string, number>;
  target: { name: string; value: number; target: string; pass: boolean };
  errors: string[];
  section: Section;
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

/** The printed figures of some turns of one setup (one turn, or all of them). */
function figures(turns: Turn[]): Record<string, number> {
  const requests = sum(turns.map((t) => t.requests));
  const seconds = sum(turns.map((t) => t.seconds));
  const nodeCpu = sum(turns.map((t) => t.nodeCpuSeconds));
  const redisCpu = sum(turns.map((t) => t.redisCpuSeconds));
  const redisCalls = sum(turns.map((t) => t.redisCalls));
  return {
    requests,
    seconds,
    verify_per_s: seconds > 0 ? requests / seconds : 0,
    node_cpu_s: nodeCpu,
    verify_per_cpu_s: nodeCpu > 0 ? requests / nodeCpu : 0,
    node_cpu_us: requests > 0 ? (nodeCpu / requests) * 1e6 : 0,
    redis_cpu_us: requests > 0 ? (redisCpu / requests) * 1e6 : 0,
    script_calls_per_verify: requests > 0 ? redisCalls / requests : 0,
  };
}

const key = (setup: Setup) => (setup === 'one Redis' ? 'one_redis' : 'cluster');

export function clusterReport(turns: Turn[], errors: string[], notes: string[] = []): ClusterBenchResult {
  const metrics: Record<string, number> = {};
  const totals: Row[] = [];
  for (const setup of SETUPS) {
    const mine = turns.filter((t) => t.setup === setup);
    if (mine.length === 0) throw new Error(`no turn of ${setup}`);
    const f = figures(mine);
    for (const [name, value] of Object.entries(f)) metrics[`${key(setup)}_${name}`] = value;
    totals.push({ name: `${setup}, ${mine.length} turns`, ...f });
  }
  metrics.ratio = metrics.cluster_verify_per_cpu_s! / metrics.one_redis_verify_per_cpu_s!;
  const failed = sum(turns.map((t) => t.errors));
  if (failed > 0) {
    const first = turns.find((t) => t.firstError !== undefined)?.firstError ?? 'socket error or no answer';
    errors.push(`${failed} of ${sum(turns.map((t) => t.requests))} /verify not as expected (first: ${first})`);
  }
  const target = {
    name: '/verify per CPU-second of 2 nodes, Cluster vs one Redis',
    value: metrics.ratio,
    target: `>= ${TARGET_RATIO}`,
    pass: metrics.ratio >= TARGET_RATIO && errors.length === 0,
  };
  const rows: Row[] = [
    ...turns.map((t, i) => ({ name: `turn ${i + 1}: ${t.setup}`, ...figures([t]) })),
    ...totals,
    {
      name: 'Cluster / one Redis, per CPU-second of the nodes',
      ratio: metrics.ratio,
      target: target.target,
      met: target.pass ? 'yes' : 'NO',
    },
  ];
  return {
    turns,
    metrics,
    target,
    errors,
    section: { name: 'two nodes: one Redis vs Redis Cluster (/verify)', rows, notes: [...notes, ...errors.map((e) => `error: ${e}`)] },
  };
}

/**
 * `npm run bench -- --only failover`: how long after a Sentinel primary's death two nodes serve
 * again, and where the time goes. The nodes run with the defaults (REDIS_CLOCK_SKEW_MS 1000,
 * REDIS_COMMAND_TIMEOUT_MS 1000); the Sentinels (three, quorum 2, made as the tests make theirs,
 * test/helpers/redisSentinels.ts) with the settings docs/several-nodes.md recommends:
 * down-after-milliseconds 3000, failover-timeout 2000.
 *
 * Each round kills the primary with SIGKILL while each node is probed: every 100 ms a fresh
 * challenge issued by the node, solved (the probe waits the time its trace spans, as a person
 * would take), verified there and its token redeemed there. A node is back at the issue time of the
 * first challenge issued after the kill that went through both; the round's figure is the later of
 * the two nodes. The Sentinels' events (+sdown, +odown, +promoted-slave, +switch-master) and
 * the fences the nodes opened on the promoted replica (stamped with the opener's clock plus the
 * skew) say where the time went. The killed server is started again between rounds (the Sentinels make it a replica).
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { STORE_DEFAULTS } from '../src/store/parseStoreConfig.js';
import { type AriadneNode, traceTimePassed } from '../test/helpers/ariadneNode.js';
import type { RawEvent } from '../src/kernel/types.js';
import { buildSubmission, postJson, traceSpanMs } from '../test/helpers/client.js';
import { challengeOf, startPair } from '../test/helpers/nodePair.js';
import { SENTINEL_NAME, type TestSentinels, startRedisSentinels } from '../test/helpers/redisSentinels.js';
import { testKernel } from '../test/helpers/server.js';
import { until } from '../test/helpers/until.js';
import type { Row, Section } from './section.js';

/** BENCH_QUICK=1 runs one round. */
const ROUNDS = process.env.BENCH_QUICK === '1' ? 1 : 3;
const DOWN_AFTER_MS = 3_000;
const SKEW_MS = STORE_DEFAULTS.REDIS_CLOCK_SKEW_MS;
const PREFIX = 'failover-bench:';
/** A new probe per node this often. */
const PROBE_EVERY_MS = 100;

/** A probe that went through: its challenge's issue time, its trace's span, and when its token was redeemed. */
interface Passed {
  issuedAt: number;
  traceMs: number;
  redeemedAt: number;
}

/** Probes `node` every PROBE_EVERY_MS until `stopped()`: the probes that went through so far, and the end of the last. */
function probe(node: AriadneNode, stopped: () => boolean): { passed: Passed[]; done: Promise<void> } {
  const passed: Passed[] = [];
  const inFlight: Promise<void>[] = [];
  const one = async () => {
    const issuedAt = Date.now();
    try {
      const ch = await challengeOf(node);
      const sessionId = randomUUID();
      const body = buildSubmission(await testKernel(), ch, { sessionId });
      await traceTimePassed(ch, body);
      const v = await postJson(node.at('/verify'), body);
      if (v.body.success !== true) return;
      const s = await postJson(node.at('/siteverify'), { token: v.body.token, session_id: sessionId });
      if (s.body.success === true) passed.push({ issuedAt, traceMs: traceSpanMs(body.events as RawEvent[]), redeemedAt: Date.now() });
    } catch {
      // A refused or failed probe is what the outage looks like; only successes are counted.
    }
  };
  const done = (async () => {
    while (!stopped()) {
      inFlight.push(one());
      await new Promise((r) => setTimeout(r, PROBE_EVERY_MS));
    }
    await Promise.all(inFlight);
  })();
  return { passed, done };
}

/** The Sentinels' events about the failover, each with when any of them first published it. */
const EVENTS = ['+sdown', '+odown', '+promoted-slave', '+switch-master'] as const;

function watchSentinels(sentinels: TestSentinels): {
  firstAfter(event: (typeof EVENTS)[number], t: number): number | undefined;
  close(): void;
} {
  const seen: { event: string; at: number }[] = [];
  const clients = sentinels.sentinels.split(',').map((address) => {
    const client = new Redis({ port: Number(address.split(':')[1]), host: '127.0.0.1' });
    client.on('error', () => {});
    client.on('message', (event: string, message: string) => {
      // +sdown and +odown of the replicas too: only the primary's count here.
      if (event.endsWith('down') && !message.startsWith(`master ${SENTINEL_NAME} `)) return;
      seen.push({ event, at: Date.now() });
    });
    void client.subscribe(...EVENTS);
    return client;
  });
  return {
    firstAfter: (event, t) => seen.find((e) => e.event === event && e.at > t)?.at,
    close: () => {
      for (const c of clients) c.disconnect();
    },
  };
}

/** The earliest stamp of a fence opened after `after` on the primary now, minus the skew: when the first node opened one there. */
async function fenceOpenedAt(sentinels: TestSentinels, after: number): Promise<number | undefined> {
  const primary = await sentinels.primary();
  const keys = (await primary.command('KEYS', `${PREFIX}*:fence`)) as string[];
  const stamps = await Promise.all(keys.map(async (k) => Number(String(await primary.command('GET', k)).split('|')[1])));
  const fresh = stamps.filter((s) => s - SKEW_MS > after);
  return fresh.length === 0 ? undefined : Math.min(...fresh) - SKEW_MS;
}

const seconds = (ms: number | undefined) => (ms === undefined ? undefined : Math.round(ms / 10) / 100);

export async function runFailoverBench(): Promise<Section> {
  const sentinels = await startRedisSentinels({ downAfterMs: DOWN_AFTER_MS });
  const events = watchSentinels(sentinels);
  let nodes: AriadneNode[] = [];
  const rows: Row[] = [];
  try {
    nodes = await startPair({
      REDIS_SENTINELS: sentinels.sentinels,
      REDIS_SENTINEL_NAME: SENTINEL_NAME,
      REDIS_CLOCK_SKEW_MS: String(SKEW_MS),
      REDIS_COMMAND_TIMEOUT_MS: String(STORE_DEFAULTS.REDIS_COMMAND_TIMEOUT_MS),
      REDIS_PREFIX: PREFIX,
    });
    for (let round = 1; round <= ROUNDS; round++) {
      await sentinels.settled(60_000);
      let stopped = false;
      const probes = nodes.map((n) => probe(n, () => stopped));
      const roundStart = Date.now();
      const passedSince = (t: number) =>
        probes.map(({ passed }) => passed.filter((p) => p.issuedAt > t).sort((x, y) => x.issuedAt - y.issuedAt)[0]);
      // Both nodes serve before the kill.
      await until(() => passedSince(roundStart).every((p) => p !== undefined), 30_000);
      const killed = await sentinels.primary();
      const killedAt = Date.now();
      await killed.stop('SIGKILL');
      // Until a challenge issued after the kill went through on both nodes.
      await until(() => passedSince(killedAt).every((p) => p !== undefined), 60_000);
      stopped = true;
      await Promise.all(probes.map((p) => p.done));
      const firstAfter = passedSince(killedAt) as Passed[];
      const fenceAt = await fenceOpenedAt(sentinels, killedAt);
      const after = (at: number | undefined) => seconds(at === undefined ? undefined : at - killedAt);
      rows.push({
        name: `round ${round}`,
        sdown_s: after(events.firstAfter('+sdown', killedAt)),
        odown_s: after(events.firstAfter('+odown', killedAt)),
        promoted_s: after(events.firstAfter('+promoted-slave', killedAt)),
        switch_master_s: after(events.firstAfter('+switch-master', killedAt)),
        fence_opened_s: after(fenceAt),
        cutoff_s: after(fenceAt === undefined ? undefined : fenceAt + SKEW_MS),
        back_s: seconds(Math.max(...firstAfter.map((p) => p.issuedAt)) - killedAt),
        first_redeemed_s: seconds(Math.max(...firstAfter.map((p) => p.redeemedAt)) - killedAt),
        trace_s: seconds(Math.max(...firstAfter.map((p) => p.traceMs))),
      });
      console.log(`failover ${JSON.stringify(rows.at(-1))}`);
      await killed.start();
    }
  } finally {
    events.close();
    await Promise.all(nodes.map((n) => n.stop()));
    await sentinels.close();
  }
  return {
    name: 'failover',
    rows,
    notes: [
      `Sentinel: 3 Sentinels, quorum 2, down-after-milliseconds ${DOWN_AFTER_MS}, failover-timeout 2000; a primary and 2 replicas. Nodes: 2, REDIS_CLOCK_SKEW_MS ${SKEW_MS}, REDIS_COMMAND_TIMEOUT_MS ${STORE_DEFAULTS.REDIS_COMMAND_TIMEOUT_MS}.`,
      'Seconds after the SIGKILL, each the first Sentinel to publish it: sdown_s a Sentinel found the primary down, odown_s the quorum agreed, promoted_s the chosen replica reported itself primary, switch_master_s the new primary announced; fence_opened_s the first fence a node opened on it (its stamp minus the skew); cutoff_s that stamp (challenges issued before it are refused).',
      `back_s the issue time of the first fresh challenge verified and redeemed on each node (the later node), probed every ${PROBE_EVERY_MS} ms; first_redeemed_s when that token was redeemed, after the trace's span (trace_s) that a person takes to solve.`,
    ],
  };
}

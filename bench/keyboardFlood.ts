/**
 * `npm run bench -- --only keyboard-flood`: the keyboard budget against a flood. Two Ariadne
 * processes over one real redis-server serve one site; a steady mix of pointer people and keyboard
 * people (the calibration's keyboard MODELS of people: sighted, screen-reader, switch scanning,
 * sip-and-puff) solves on both; then keyboard scripts that release their keys and draw their gaps
 * blind to the maze (the families the people-first model lets through: uniform, normal and
 * log-normal gaps) flood both nodes at FLOOD_FACTOR times the site's keyboard baseline from
 * SCRIPT_CLIENTS loopback addresses (forwarded by a trusted proxy: TRUST_PROXY=1); then the mix
 * again. Time is compressed: the budget's minute is BENCH_MINUTE_MS (KEYBOARD_BUDGET_MINUTE_MS),
 * but every trace takes its own real time, so a long keyboard solve spans several of these minutes.
 *
 * Printed: the scripts' tokens per budget minute during the flood against the baseline (target: at
 * most 3 times on average), when the escalation began after the flood began (target: within a
 * minute) and ended after it ended (within a few minutes), and the keyboard people's acceptance
 * before, during and after (a person counts in a phase when the whole solve, from the challenge to
 * /verify, fell in it). Pointer people are scored in shadow mode (SCORING_MODE=shadow: this bench
 * measures the keyboard door, and their stand-in traces are straight lines); keyboard solves are
 * enforced (SCORING_KEYBOARD_MODE=enforce).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Challenge } from '../src/core/challenge/issueChallenge.js';
import { loadKernel } from '../src/kernel/index.js';
import type { Kernel, RawEvent } from '../src/kernel/types.js';
import { KEYBOARD_PEOPLE, type KeyboardPerson } from '../calibration/keyboard/keyboardPeople.js';
import { buildSubmission, solution, traceEvents, traceSpanMs } from '../test/helpers/client.js';
import { modelledPersonAtKeys, scriptAtKeys } from '../test/helpers/keyboardSolves.js';
import { startRedis } from '../test/helpers/redisServer.js';
import { type Child, startServer } from './http/processes.js';
import {
  BENCH_MINUTE_MS,
  FLOOD_FACTOR,
  KEYBOARD_PER_MINUTE,
  PHASES,
  POINTER_PER_MINUTE,
  SCRIPT_CLIENTS,
  arrivals,
  clientAddress,
} from './keyboardFlood/floodPlan.js';
import { type FloodOutcome, floodReport } from './keyboardFlood/floodReport.js';
import type { Section } from './section.js';

const SITE = 'flood-site';
const END_MS = (PHASES.before + PHASES.flood + PHASES.after) * BENCH_MINUTE_MS;
const ORIGIN = 'https://shop.example';
const SCRIPT_FAMILIES = ['uniform', 'gaussian', 'lognormal'] as const;
/** How long before its planned submission a script fetches its challenge (its trace takes about 10 s). */
const SCRIPT_LEAD_MS = 30_000;
/** Longest a request may take before it counts as failed. */
const REQUEST_TIMEOUT_MS = 30_000;

type Outcome = FloodOutcome & { kind: 'pointer' | 'script' | KeyboardPerson };

const sleepUntil = (start: number, at: number) => new Promise((r) => setTimeout(r, Math.max(0, start + at - Date.now())));

async function post(url: string, body: unknown, address: string): Promise<unknown> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: ORIGIN, 'x-forwarded-for': address },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  return res.json();
}

/** One solver: fetch a challenge on `node`, solve it as `events` says (taking the trace's real time, at least until `notBefore`), submit. */
async function solve(
  kernel: Kernel,
  node: Child,
  address: string,
  kind: Outcome['kind'],
  eventsFor: (ch: Challenge) => RawEvent[],
  start: number,
  notBefore: number,
): Promise<Outcome> {
  const fetchedAt = Date.now() - start;
  const ch = (await post(`${node.url}/challenge`, { site_key: SITE }, address)) as Challenge;
  const events = eventsFor(ch);
  const keyboard = kind !== 'pointer';
  const bits = keyboard ? ch.pow_difficulty_keyboard : ch.pow_difficulty;
  const pow = kernel.solvePow(ch.pow_challenge, bits, 0, 1 << 28);
  const body = buildSubmission(kernel, ch, {
    events,
    sessionId: `${kind}-${fetchedAt}-${address}`,
    pow: { nonce: pow.nonce!, hash: pow.hash! },
  });
  const submitAt = Math.max(notBefore, fetchedAt + traceSpanMs(events) + 300);
  // A solve that would end after the timetable counts in no phase: not waited for.
  if (submitAt > END_MS) return { kind, fetchedAt, submittedAt: Infinity, ok: false, error: 'after the end' };
  await sleepUntil(start, submitAt);
  const submittedAt = Date.now() - start;
  const v = (await post(`${node.url}/verify`, body, address).catch((e: unknown) => ({ success: false, error_code: String(e) }))) as {
    success?: boolean;
    error_code?: string;
    token?: string;
  };
  if (v.success !== true) return { kind, fetchedAt, submittedAt, ok: false, error: v.error_code };
  const method = JSON.parse(Buffer.from(String(v.token).split('.')[1]!, 'base64url').toString()).method as string;
  return { kind, fetchedAt, submittedAt, ok: true, method };
}

function mazeOf(kernel: Kernel, ch: Challenge) {
  return kernel.generateMaze({ seed: ch.maze_seed, width: ch.maze_width, height: ch.maze_height, difficulty: ch.maze_difficulty });
}

export async function runKeyboardFloodBench(): Promise<Section> {
  const work = mkdtempSync(join(tmpdir(), 'ariadne-bench-flood-'));
  const redis = await startRedis();
  const nodes: Child[] = [];
  try {
    const sitesFile = join(work, 'sites.json');
    // The site's keyboard baseline is its people's rate: the floor says so (a learned baseline takes hours).
    const keyboard = { floor_per_minute: KEYBOARD_PER_MINUTE };
    writeFileSync(
      sitesFile,
      JSON.stringify({
        sites: { [SITE]: { hostnames: ['shop.example'], secret: 'bench-site-secret-'.padEnd(40, 'x'), policy: { keyboard } } },
      }),
    );
    const env = {
      STORE: 'redis',
      REDIS_URL: redis.url,
      REDIS_CLOCK_SKEW_MS: '0',
      SITES_FILE: sitesFile,
      TRUST_PROXY: '1',
      POW_DIFFICULTY: '4',
      SCORING_MODE: 'shadow',
      SCORING_KEYBOARD_MODE: 'enforce',
      KEYBOARD_BUDGET_MINUTE_MS: String(BENCH_MINUTE_MS),
      CHALLENGE_TTL_MS: '120000',
      LOG_LEVEL: 'warn',
    };
    nodes.push(await startServer(env, true), await startServer(env, true));
    const kernel = await loadKernel();
    const start = Date.now() + 2_000;
    const total = PHASES.before + PHASES.flood + PHASES.after;
    const floodFrom = PHASES.before;
    const floodTo = PHASES.before + PHASES.flood;
    const jobs: Promise<Outcome>[] = [];
    let seed = 1;
    let n = 0;
    const at = (t: number, job: () => Promise<Outcome>) =>
      jobs.push(
        sleepUntil(start, t)
          .then(job)
          .catch((e: unknown) => ({ kind: 'pointer', fetchedAt: t, submittedAt: t, ok: false, error: String(e) }) as Outcome),
      );
    // Pointer people: stand-in straight traces of the solution (scored in shadow mode).
    arrivals(POINTER_PER_MINUTE, 0, total).forEach((t, i) =>
      at(t, () => solve(kernel, nodes[n++ % 2]!, clientAddress(1, i), 'pointer', (ch) => traceEvents(ch, solution(kernel, ch)), start, 0)),
    );
    // Keyboard people: each of the four models in turn.
    arrivals(KEYBOARD_PER_MINUTE, 0, total, 0.25).forEach((t, i) => {
      const kind = KEYBOARD_PEOPLE[i % KEYBOARD_PEOPLE.length]!;
      const s = seed++;
      at(t, () =>
        solve(
          kernel,
          nodes[n++ % 2]!,
          clientAddress(2, i),
          kind,
          (ch) => modelledPersonAtKeys(mazeOf(kernel, ch), s, 'ours', kind),
          start,
          0,
        ),
      );
    });
    // The flood: submissions planned over the flood's minutes, each challenge fetched SCRIPT_LEAD_MS before.
    arrivals(KEYBOARD_PER_MINUTE * FLOOD_FACTOR, floodFrom, floodTo).forEach((t, i) => {
      const family = SCRIPT_FAMILIES[i % SCRIPT_FAMILIES.length]!;
      const s = 1_000_000 + seed++;
      at(Math.max(0, t - SCRIPT_LEAD_MS), () =>
        solve(
          kernel,
          nodes[n++ % 2]!,
          clientAddress(3, i % SCRIPT_CLIENTS),
          'script',
          (ch) => scriptAtKeys(mazeOf(kernel, ch), family, 'random', s),
          start,
          t,
        ),
      );
    });
    // The door as each node announces it, read every second.
    const doors: { t: number; node: number; door: string }[] = [];
    let watching = true;
    const watch = (async () => {
      while (watching) {
        for (const [i, node] of nodes.entries()) {
          const ch = (await post(`${node.url}/challenge`, { site_key: SITE }, clientAddress(4, i)).catch(() => undefined)) as
            | Challenge
            | undefined;
          if (ch?.keyboard_door !== undefined) doors.push({ t: Date.now() - start, node: i, door: ch.keyboard_door });
        }
        await new Promise((r) => setTimeout(r, 1_000));
      }
    })();
    const outcomes = await Promise.all(jobs);
    watching = false;
    await watch;
    return floodReport(outcomes, doors);
  } finally {
    await Promise.all(nodes.map((n) => n.stop()));
    await redis.close();
    rmSync(work, { recursive: true, force: true });
  }
}

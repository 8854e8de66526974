import { EVENT_CAP } from '../../src/client/recording.js';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCRIPTED_FAMILIES, type ScriptedFamily, botEvents } from '../../calibration/bots/scriptedMovers.js';
import { BOT_FAMILIES } from '../../calibration/bots/families.js';
import { CELL } from '../../calibration/people/mazePath.js';
import { Rng } from '../../calibration/random.js';
import { defaultConfig } from '../../src/config.js';
import type { Challenge } from '../../src/core/challenge/issueChallenge.js';
import { defaultTable } from '../../src/core/scoring/ScoringTable.js';
import { TraceFingerprints } from '../../src/core/scoring/TraceFingerprints.js';
import { MemoryStore } from '../../src/store/MemoryStore.js';
import { scoreSubmission } from '../../src/core/scoring/scoreSubmission.js';
import { UNSCORED } from '../../src/core/verify/checkScore.js';
import type { RawEvent } from '../../src/kernel/types.js';
import { buildSubmission, postJson, postVerify, solution, traceEvents } from '../helpers/client.js';
import { challengesWithHumanTrace, hasHumans, humanDataFile, mazeOf, replays } from '../helpers/humanTraces.js';
import { type TestServer, startTestServer, testKernel, withServer } from '../helpers/server.js';
import { modelledPersonAtKeys, scriptAtKeys } from '../helpers/keyboardSolves.js';

if (!hasHumans) console.warn(`skipping the human-trace scoring tests: no human data at ${humanDataFile}`);

/** What start-up reads with no SCORING_MODE or SCORE_THRESHOLD set. */
const ENFORCED = defaultConfig().scoring;
const threshold = defaultTable.threshold;

let enforced: TestServer;
beforeAll(async () => {
  enforced = await startTestServer({ scoring: ENFORCED });
});
afterAll(async () => {
  await enforced.close();
});

async function challenge(server: TestServer): Promise<Challenge> {
  const r = await postJson(server.at('/challenge'), { site_key: 'site-s' });
  expect(r.status).toBe(200);
  // The calibration lays traces on mazes of CELL-pixel cells.
  expect(r.body.cell_size).toBe(CELL);
  return r.body as Challenge;
}

let sessions = 0;
/** Submits `events` as the solve of `ch`; on success, redeems the token at /siteverify. */
async function verify(server: TestServer, ch: Challenge, events: RawEvent[], probeCompletionTokens?: string[]) {
  const sessionId = `scoring-${++sessions}`;
  const body = buildSubmission(server.kernel, ch, { sessionId, events, ...(probeCompletionTokens ? { probeCompletionTokens } : {}) });
  const r = await postVerify(server, body);
  if (r.body.success !== true) return { status: r.status, body: r.body, siteverify: undefined };
  const s = await postJson(server.at('/siteverify'), { token: r.body.token, session_id: sessionId });
  return { status: r.status, body: r.body, siteverify: s.body };
}

/** The score the calibrated scorer gives `events` on `ch` with an empty duplicate memory. */
async function offlineScore(ch: Challenge, events: RawEvent[], probeReactionsMs: number[] = []): Promise<number> {
  const kernel = await testKernel();
  const fresh = new MemoryStore({ maxMarkers: 10, maxCounters: 10 });
  const r = await scoreSubmission(
    { kernel, fingerprints: new TraceFingerprints(fresh) },
    { maze: mazeOf(ch), cellSize: ch.cell_size, events: kernel.packEvents(events), rawEvents: events, probeReactionsMs, threshold },
  );
  return r.score;
}

/**
 * A scripted mover of `family` solving `ch`: the first seed whose trace replays, of no more events
 * than the widget records (EVENT_CAP; a longer one can pass MAX_BODY_BYTES, which no widget sends).
 */
async function botFor(ch: Challenge, family: ScriptedFamily): Promise<RawEvent[]> {
  const kernel = await testKernel();
  const maze = kernel.generateMaze(mazeOf(ch));
  for (let seed = 1; seed <= 20; seed++) {
    const events = botEvents(family, new Rng(seed), maze);
    if (events.length <= EVENT_CAP && (await replays(ch, events))) return events;
  }
  throw new Error(`no ${family} trace replays on this maze`);
}

/** A public mover's solve of `ch` in one of its variants (the first seed whose trace replays, within EVENT_CAP events). */
async function toolFor(ch: Challenge, name: string, variant: string): Promise<RawEvent[]> {
  const kernel = await testKernel();
  const family = BOT_FAMILIES.find((f) => f.name === name)!;
  const maze = kernel.generateMaze(mazeOf(ch));
  for (let seed = 1; seed <= 40; seed++) {
    const events = await family.events(new Rng(seed), maze, family.variants.indexOf(variant));
    if (events.length <= EVENT_CAP && (await replays(ch, events))) return events;
  }
  throw new Error(`no ${name} trace replays on this maze`);
}

const ARROWS: Record<string, string> = { '1,0': 'ArrowRight', '-1,0': 'ArrowLeft', '0,1': 'ArrowDown', '0,-1': 'ArrowUp' };

/**
 * A script's arrow-key solve in the widget's format: a keydown (and its keyup) at the centre of
 * each cell the cursor is on, in maze fractions, the first on the start cell; keystrokes a
 * log-normal time apart (median 260 ms), drawn independently of the maze.
 */
async function keyboardSolve(ch: Challenge, seed: number, upTo?: number): Promise<RawEvent[]> {
  const kernel = await testKernel();
  const rng = new Rng(seed);
  const cells = kernel.generateMaze(mazeOf(ch)).solution.slice(0, upTo);
  const events: RawEvent[] = [];
  let t = rng.uniform(300, 900);
  cells.forEach((c, i) => {
    const prev = cells[i - 1];
    const key = prev === undefined ? 'Enter' : ARROWS[`${c.x - prev.x},${c.y - prev.y}`]!;
    const at = { x: (c.x + 0.5) / ch.maze_width, y: (c.y + 0.5) / ch.maze_height };
    events.push({ ...at, t: Math.round(t * 10) / 10, type: 'keydown', key });
    events.push({ ...at, t: Math.round((t + rng.uniform(50, 130)) * 10) / 10, type: 'keyup', key });
    t += Math.min(1500, Math.max(130, Math.exp(Math.log(260) + 0.45 * rng.gauss())));
  });
  return events;
}

const rejected = (code: string) => ({ status: 400, body: { success: false, score: 0, error_code: code }, siteverify: undefined });

describe('scoring enforced at the calibrated threshold (the default)', () => {
  it('is the start-up default', () => {
    expect(ENFORCED).toEqual({ mode: 'enforce', threshold: defaultTable.threshold, table: 'v3' });
  });

  it.skipIf(!hasHumans)("accepts a held-out person's movement laid on the maze; the measured score reaches /siteverify", async () => {
    const found = await challengesWithHumanTrace(() => challenge(enforced), 1, 10);
    const ch = found.chs[0]!,
      events = found.events[0]!;
    const expected = await offlineScore(ch, events);
    const r = await verify(enforced, ch, events);
    expect(r.body).toEqual({ success: true, token: expect.any(String) });
    expect(r.siteverify).toMatchObject({ success: true, score: expected });
    expect(r.siteverify!.score).toBeGreaterThanOrEqual(threshold);
  });

  it.each(SCRIPTED_FAMILIES)('rejects the scripted %s mover with behavioral_rejected and score 0', async (family) => {
    const ch = await challenge(enforced);
    const events = await botFor(ch, family);
    expect(await offlineScore(ch, events)).toBeLessThan(threshold);
    expect(await verify(enforced, ch, events)).toEqual(rejected('behavioral_rejected'));
  });

  it.each([
    ['ghost-cursor', 'native timing, dpr 1'],
    ['ghost-cursor', '16 ms frames, dpr 2'],
    ['hero', 'native timing, dpr 1'],
    ['hero', '33 ms frames, dpr 1'],
  ])('rejects the public mover %s (%s) chained through the turn points with behavioral_rejected', async (name, variant) => {
    const ch = await challenge(enforced);
    const events = await toolFor(ch, name, variant);
    expect(await offlineScore(ch, events)).toBeLessThan(threshold);
    expect(await verify(enforced, ch, events)).toEqual(rejected('behavioral_rejected'));
  });

  it('rejects the synthetic traces of the other tests (cell centres, fixed 30 ms steps) as scripted', async () => {
    const ch = await challenge(enforced);
    expect(await verify(enforced, ch, traceEvents(ch, solution(enforced.kernel, ch)))).toEqual(rejected('behavioral_rejected'));
  });

  it.skipIf(!hasHumans)("rejects the same person's trace again on a fresh challenge as duplicate_trace", async () => {
    // A server of its own: its duplicate memory holds only what this test submits.
    await withServer({ scoring: ENFORCED }, async (server) => {
      // Two mazes of about one laid length, so that one trace fits both.
      const {
        chs: [first, second],
        events,
      } = await challengesWithHumanTrace(() => challenge(server), 2, 30);
      expect((await verify(server, first!, events[0]!)).body.success).toBe(true);
      // Laid on another maze it is not the same events, yet the same movement.
      expect(events[1]).not.toEqual(events[0]);
      expect(await verify(server, second!, events[1]!)).toEqual(rejected('duplicate_trace'));
    });
  });

  it('accepts a (modelled) person solving with the arrow keys: pauses at turns and junctions, quick runs, ~0.1 s holds', async () => {
    const ch = await challenge(enforced);
    const maze = (await testKernel()).generateMaze(mazeOf(ch));
    // The first of the model's people the offline scorer accepts (it accepts about 98% of them).
    let events: RawEvent[] = [];
    for (let seed = 1; seed <= 10 && events.length === 0; seed++) {
      const solve = modelledPersonAtKeys(maze, seed);
      if ((await offlineScore(ch, solve)) >= threshold) events = solve;
    }
    const r = await verify(enforced, ch, events);
    expect(r.body.success).toBe(true);
    expect(r.siteverify).toMatchObject({ success: true, score: await offlineScore(ch, events), input_type: 'keyboard' });
    expect(r.siteverify!.score).toBeGreaterThanOrEqual(threshold);
    expect(r.siteverify).not.toHaveProperty('reasons');
  });

  it('rejects arrow keys from scripts that send no keyups, whatever their gaps (log-normal, uniform, Gaussian)', async () => {
    const kernel = await testKernel();
    // Table v3 places its keyboard bias for people, so a script that releases its keys at random
    // and varies its gaps mostly passes (docs/keyboard-solves.md); its keyup gate refuses every
    // script that sends keydowns only, whatever the rest reads.
    for (const family of ['lognormal', 'uniform', 'gaussian'] as const) {
      for (let seed = 1; seed <= 3; seed++) {
        const ch = await challenge(enforced);
        const events = scriptAtKeys(kernel.generateMaze(mazeOf(ch)), family, 'none', seed);
        expect(await offlineScore(ch, events)).toBe(0);
        expect(await verify(enforced, ch, events)).toEqual(rejected('behavioral_rejected'));
      }
    }
  });

  it('rejects keystrokes at a machine-regular rhythm', async () => {
    const ch = await challenge(enforced);
    const events = (await keyboardSolve(ch, 8)).map((e, i) => ({ ...e, t: Math.floor(i / 2) * 120 + (i % 2) * 60 }));
    expect(await verify(enforced, ch, events)).toEqual(rejected('behavioral_rejected'));
  });
});

describe('SCORING_MODE=shadow', () => {
  let server: TestServer;
  const lines: Record<string, unknown>[] = [];
  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _enc, done) {
        for (const line of String(chunk).split('\n')) if (line.trim() !== '') lines.push(JSON.parse(line));
        done();
      },
    });
    server = await startTestServer({ scoring: { ...ENFORCED, mode: 'shadow' } }, { logger: pino({ level: 'info' }, sink) });
  });
  afterAll(async () => {
    await server.close();
  });

  it('accepts a scripted mover, puts its low score in the token, and logs it', async () => {
    const ch = await challenge(server);
    const events = await botFor(ch, 'linear');
    const expected = await offlineScore(ch, events);
    const r = await verify(server, ch, events);
    expect(r.body.success).toBe(true);
    expect(r.siteverify).toMatchObject({ success: true, score: expected });
    expect(expected).toBeLessThan(threshold);
    const logged = lines.filter((l) => l.msg === 'shadow score');
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      level: 30,
      site_key: 'site-s',
      score: expected,
      input_type: 'mouse',
      duplicate: false,
      below_threshold: true,
    });
    // The reason codes of the low score reach the log and /siteverify alike.
    const reasons = (r.siteverify as { reasons: string[] }).reasons;
    expect(reasons.length).toBeGreaterThanOrEqual(1);
    expect(reasons.length).toBeLessThanOrEqual(3);
    expect(logged[0]!.reasons).toEqual(reasons);
    // Only these fields: nothing of the token, the submission or its events.
    expect(Object.keys(logged[0]!).sort()).toEqual(
      ['below_threshold', 'duplicate', 'hostname', 'input_type', 'level', 'msg', 'pid', 'reasons', 'score', 'site_key', 'time'].sort(),
    );
  });

  it('scores server-measured probe reactions: a fast one lowers the score, a slow one does not', async () => {
    let clock = Date.now();
    await withServer({ scoring: { ...ENFORCED, mode: 'shadow' }, probeProbability: 1 }, { now: () => clock }, async (probed) => {
      const solve = async (reactionMs: number, seed: number) => {
        const ch = (await postJson(probed.at('/challenge'), { site_key: 'site-s' })).body as Challenge & { probes: any[] };
        const trigger = ch.probes[0].trigger_cell;
        const cells = probed.kernel.generateMaze(mazeOf(ch)).solution;
        const at = cells.findIndex((c) => c.x === trigger.x && c.y === trigger.y);
        const events = await keyboardSolve(ch, seed);
        const sessionId = `probe-${seed}`;
        const armed = await postJson(probed.at('/probe/arm'), {
          challenge_id: ch.id,
          site_key: ch.site_key,
          session_id: sessionId,
          probe_id: ch.probes[0].id,
          events: await keyboardSolve(ch, seed, at + 1),
        });
        expect(armed.body.success).toBe(true);
        const target = ch.probes[0].cells.find((c: any) => c.color === ch.probes[0].target_color);
        clock += reactionMs;
        const done = await postJson(probed.at('/probe/complete'), {
          challenge_id: ch.id,
          session_id: sessionId,
          probe_ticket: armed.body.probe_ticket,
          tapped_cell: { x: target.x, y: target.y },
        });
        expect(done.body.success).toBe(true);
        const body = buildSubmission(probed.kernel, ch, { sessionId, events, probeCompletionTokens: [done.body.completion_token] });
        const r = await postVerify(probed, body);
        expect(r.body.success).toBe(true);
        const s = await postJson(probed.at('/siteverify'), { token: r.body.token, session_id: sessionId });
        return {
          score: s.body.score as number,
          alone: await offlineScore(ch, events),
          withReaction: await offlineScore(ch, events, [reactionMs]),
        };
      };
      const fast = await solve(160, 21);
      expect(fast.score).toBe(fast.withReaction);
      expect(fast.score).toBeLessThan(fast.alone);
      const slow = await solve(900, 22);
      expect(slow.score).toBe(slow.alone);
    });
  });
});

describe('SCORING_KEYBOARD_MODE apart from SCORING_MODE', () => {
  /** A script at the keys that the scorer refuses whatever its gaps: it sends no keyups (v3's keyup gate). */
  async function refusedScriptAtKeys(ch: Challenge): Promise<RawEvent[]> {
    const events = scriptAtKeys((await testKernel()).generateMaze(mazeOf(ch)), 'lognormal', 'none', 1);
    expect(await offlineScore(ch, events)).toBeLessThan(threshold);
    return events;
  }

  it('keyboard shadow, pointer enforced: a low keyboard solve gets its score and reasons, a scripted mover is still rejected', async () => {
    await withServer({ scoring: { ...ENFORCED, keyboardMode: 'shadow' } }, async (server) => {
      const ch = await challenge(server);
      const events = await refusedScriptAtKeys(ch);
      const r = await verify(server, ch, events);
      expect(r.body.success).toBe(true);
      expect(r.siteverify).toMatchObject({ success: true, score: await offlineScore(ch, events), input_type: 'keyboard' });
      expect((r.siteverify as { reasons: string[] }).reasons.length).toBeGreaterThanOrEqual(1);
      const mover = await challenge(server);
      expect(await verify(server, mover, await botFor(mover, 'linear'))).toEqual(rejected('behavioral_rejected'));
    });
  });

  it('keyboard enforced, pointer shadow: the keyboard script is rejected, a scripted mover passes with its low score', async () => {
    await withServer({ scoring: { ...ENFORCED, mode: 'shadow', keyboardMode: 'enforce' } }, async (server) => {
      const ch = await challenge(server);
      expect(await verify(server, ch, await refusedScriptAtKeys(ch))).toEqual(rejected('behavioral_rejected'));
      const mover = await challenge(server);
      const events = await botFor(mover, 'linear');
      const r = await verify(server, mover, events);
      expect(r.siteverify).toMatchObject({ success: true, score: await offlineScore(mover, events), input_type: 'mouse' });
    });
  });

  it('keyboard off, pointer enforced: a keyboard solve is not scored (the token carries 1)', async () => {
    await withServer({ scoring: { ...ENFORCED, keyboardMode: 'off' } }, async (server) => {
      const ch = await challenge(server);
      const r = await verify(server, ch, await refusedScriptAtKeys(ch));
      expect(r.siteverify).toMatchObject({ success: true, score: UNSCORED, input_type: 'keyboard' });
    });
  });
});

describe('SCORING_MODE=off', () => {
  it('accepts a scripted mover without scoring; the token carries 1', async () => {
    await withServer({ scoring: { ...ENFORCED, mode: 'off' } }, async (server) => {
      const ch = await challenge(server);
      const r = await verify(server, ch, await botFor(ch, 'windmouse'));
      expect(r.body.success).toBe(true);
      expect(r.siteverify).toMatchObject({ success: true, score: UNSCORED });
      expect(UNSCORED).toBe(1);
    });
  });
});

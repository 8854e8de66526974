/**
 * The keyboard budget over two real Ariadne processes on one real redis-server: keyboard tokens
 * minted on node A alone put node B's door in a surge too (the counts are the store's), and both
 * open again once calm has held. The budget's minute is compressed (KEYBOARD_BUDGET_MINUTE_MS).
 * Each serving thread of a node reads the store's counts twelve times a minute, at its own
 * moments: threads come to a surge one read apart, and one sees it only if a read falls while the
 * last minute is above the level, which the flood below keeps true for at least 0.7 of a minute
 * (2.1 s here; 42 s with a minute of 60 s).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Challenge } from '../../src/core/challenge/issueChallenge.js';
import type { Cell, RawEvent } from '../../src/kernel/types.js';
import { type AriadneNode, traceTimePassed } from '../helpers/ariadneNode.js';
import { buildSubmission, postJson, solution } from '../helpers/client.js';
import { challengeOf, startPair } from '../helpers/nodePair.js';
import { type TestRedis, startRedis } from '../helpers/redisServer.js';
import { testKernel } from '../helpers/server.js';
import { burst } from '../helpers/threadsOfNode.js';
import { until } from '../helpers/until.js';

const MINUTE = 3_000;
/** Keyboard tokens in the flood: the level is 3 a minute, so the sliding minute stays above it until 0.7 of the next. */
const FLOOD = 10;
let redis: TestRedis;
let a: AriadneNode;
let b: AriadneNode;
beforeAll(async () => {
  redis = await startRedis();
  // Floor 1 a minute: a surge above 3 keyboard tokens in the last (compressed) minute. Scoring off:
  // every keyboard solve counts as the people-first door's.
  [a, b] = await startPair({
    REDIS_URL: redis.url,
    KEYBOARD_BUDGET_MINUTE_MS: String(MINUTE),
    KEYBOARD_FLOOR_PER_MINUTE: '1',
    KEYBOARD_CLIENT_PER_HOUR: '0',
  });
});
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await redis?.close();
});

/** Arrow keys along `cells`, 60 ms apart: a keyboard solve by the events, a short trace. */
function keys(ch: Challenge, cells: readonly Cell[]): RawEvent[] {
  return cells.flatMap((c, i) => {
    const at = { x: (c.x + 0.5) / ch.maze_width, y: (c.y + 0.5) / ch.maze_height };
    return [
      { ...at, t: i * 60, type: 'keydown', key: 'ArrowRight' },
      { ...at, t: i * 60 + 30, type: 'keyup', key: 'ArrowRight' },
    ];
  });
}

const doorOf = async (node: AriadneNode) => (await challengeOf(node)).keyboard_door as string;

/** The door every thread of `node` serves: challenges over connections of their own, which the kernel spreads over the threads. */
async function doorsOf(node: AriadneNode): Promise<string[]> {
  const answers = await burst(8, node.at('/challenge'), { site_key: 'site-a' });
  return [...new Set(answers.map((a) => JSON.parse(a.text).keyboard_door as string))];
}

describe('the keyboard budget across two nodes', () => {
  it("a flood of keyboard tokens on A escalates B's door too, and both open again after calm", async () => {
    // Every thread of both nodes watches the site from here on.
    expect([await doorsOf(a), await doorsOf(b)]).toEqual([['people_first'], ['people_first']]);
    const kernel = await testKernel();
    const bodies = await Promise.all(
      Array.from({ length: FLOOD }, async (_, i) => {
        const ch = await challengeOf(a);
        const body = buildSubmission(kernel, ch, { events: keys(ch, solution(kernel, ch)), sessionId: `flood-${i}` });
        await traceTimePassed(ch, body);
        return body;
      }),
    );
    const answers = await Promise.all(bodies.map((body) => postJson(a.at('/verify'), body)));
    const flooded = Date.now();
    expect(answers.map((r) => r.body.success)).toEqual(Array(FLOOD).fill(true));
    // B has minted nothing: it reads the store's counts. Every thread of both nodes comes to the
    // surge, each at its next read.
    await until(async () => (await doorOf(b)) === 'surge', 5 * MINUTE);
    const everyThread = async (door: string) => [...(await doorsOf(a)), ...(await doorsOf(b))].every((d) => d === door);
    await until(() => everyThread('surge'), MINUTE);
    const inSurge = await challengeOf(b);
    expect(inSurge.pow_difficulty_keyboard).toBe(inSurge.pow_difficulty + 6);
    // The sliding minute falls under two thirds of the level 0.8 of a minute after the flood's at
    // the soonest, then two calm minutes: every door is open again within about four minutes, and
    // not before 2.8 after the last token was counted (2.5 checked from the answers, which come
    // after the counts: the slack is their way back under load; the threads' reads only delay).
    await until(() => everyThread('people_first'), 10 * MINUTE);
    expect(Date.now() - flooded).toBeGreaterThanOrEqual(2.5 * MINUTE);
  });
});

/**
 * The keyboard budget over two real Ariadne processes on one real redis-server: keyboard tokens
 * minted on node A alone put node B's door in a surge too (the counts are the store's), and both
 * open again once calm has held. The budget's minute is compressed (KEYBOARD_BUDGET_MINUTE_MS),
 * and each serving thread of a node reads the store's counts twelve times a minute: a thread sees
 * a surge only if one of its reads falls while the last minute is above the level, which the
 * flood below keeps true for at least 0.7 of a minute (2.1 s; a minute of 60 s gives 42 s).
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
    expect(answers.map((r) => r.body.success)).toEqual(Array(FLOOD).fill(true));
    // B has minted nothing: it reads the store's counts (twelve times a budget minute).
    await until(async () => (await doorOf(b)) === 'surge', 5 * MINUTE);
    expect([await doorsOf(a), await doorsOf(b)]).toEqual([['surge'], ['surge']]);
    const inSurge = await challengeOf(b);
    expect(inSurge.pow_difficulty_keyboard).toBe(inSurge.pow_difficulty + 6);
    // The last minute fades within one, then two calm minutes: both open within about three.
    const quiet = Date.now();
    await until(async () => (await doorOf(a)) === 'people_first' && (await doorOf(b)) === 'people_first', 10 * MINUTE);
    expect(Date.now() - quiet).toBeGreaterThanOrEqual(2 * MINUTE - 500);
  });
});

// The keyboard budget over two nodes sharing one store, in simulated time: a 10-minute flood at 20
// times the site's keyboard baseline, the escalation's beginning and its end with hysteresis, the
// per-client budget, the pinned modes and the baseline a starting node takes from the store.
import { describe, expect, it } from 'vitest';
import { KeyboardBudget } from '../../../src/core/keyboard/KeyboardBudget.js';
import { KEYBOARD_DOOR_DEFAULTS, type KeyboardDoorPolicy } from '../../../src/core/keyboard/KeyboardDoorPolicy.js';
import { BASELINE_RISE_PER_HOUR } from '../../../src/core/keyboard/learnBaseline.js';
import { MemoryStore } from '../../../src/store/MemoryStore.js';
import { StoreUnavailableError } from '../../../src/store/Store.js';
import { storeWith } from '../../helpers/storeWith.js';

const M = 60_000;
const POLICY: KeyboardDoorPolicy = { ...KEYBOARD_DOOR_DEFAULTS, floorPerMinute: 3 };
const SITE = 'shop';

function twoNodes(start = Date.UTC(2030, 0, 1)) {
  const clock = { t: start };
  const now = () => clock.t;
  const store = new MemoryStore({ maxMarkers: 10_000, maxCounters: 10_000, now });
  const a = new KeyboardBudget(store, { minuteMs: M, now, timer: false });
  const b = new KeyboardBudget(store, { minuteMs: M, now, timer: false });
  return { clock, store, a, b };
}

/**
 * Runs `minutes` of traffic one second at a time: per minute `pointer` pointer tokens and
 * `keyboard` keyboard ones spread over node A and B, `flood` more keyboard ones on node A only;
 * both nodes read the store every 5 s. Returns, per second, the doors the two nodes show.
 */
async function run(n: ReturnType<typeof twoNodes>, minutes: number, perMinute: { pointer: number; keyboard: number; flood?: number }) {
  const doors: { t: number; a: string; b: string }[] = [];
  const owed = { pointer: 0, keyboard: 0, flood: 0 };
  for (let s = 0; s < minutes * 60; s++) {
    n.clock.t += 1_000;
    owed.pointer += perMinute.pointer / 60;
    owed.keyboard += perMinute.keyboard / 60;
    owed.flood += (perMinute.flood ?? 0) / 60;
    let i = 0;
    for (; owed.pointer >= 1; owed.pointer--) await (i++ % 2 ? n.a : n.b).countToken(SITE, POLICY, false);
    for (; owed.keyboard >= 1; owed.keyboard--) await (i++ % 2 ? n.a : n.b).countToken(SITE, POLICY, true);
    for (; owed.flood >= 1; owed.flood--) await n.a.countToken(SITE, POLICY, true);
    if (s % 5 === 0) await Promise.all([n.a.refresh(), n.b.refresh()]);
    doors.push({ t: n.clock.t, a: n.a.doorOf(SITE, POLICY), b: n.b.doorOf(SITE, POLICY) });
  }
  return doors;
}

describe('KeyboardBudget', () => {
  it('a 10-minute flood at 20x the keyboard baseline: both nodes escalate within a minute, and open again a few minutes after', async () => {
    const n = twoNodes();
    n.a.doorOf(SITE, POLICY);
    n.b.doorOf(SITE, POLICY);
    const steady = { pointer: 57, keyboard: 3 }; // keyboard people: 5% of the tokens, at the floor
    const before = await run(n, 30, steady);
    expect(before.every((d) => d.a === 'people_first' && d.b === 'people_first')).toBe(true);
    const floodStart = n.clock.t;
    const during = await run(n, 10, { ...steady, flood: 20 * steady.keyboard });
    const floodEnd = n.clock.t;
    const after = await run(n, 10, steady);
    for (const node of ['a', 'b'] as const) {
      const began = during.find((d) => d[node] === 'surge')!.t;
      expect(began - floodStart).toBeLessThanOrEqual(M);
      // From its beginning to the flood's end, without a gap.
      expect(during.filter((d) => d.t >= began).every((d) => d[node] === 'surge')).toBe(true);
      const ended = after.find((d) => d[node] === 'people_first')!.t;
      // The last minute's counts fade within one minute, then calm_minutes (2) of calm: at most 3 (+ a read).
      expect(ended - floodEnd).toBeGreaterThanOrEqual(POLICY.calmMinutes * M);
      expect(ended - floodEnd).toBeLessThanOrEqual((POLICY.calmMinutes + 1) * M + 5_000);
      expect(after.filter((d) => d.t >= ended).every((d) => d[node] === 'people_first')).toBe(true);
    }
    // The flood raised the baseline no faster than 25% an hour: under 4% in its 10 minutes.
    const [view] = n.b.view();
    expect(view!.base.rate).toBeLessThanOrEqual(steady.keyboard * BASELINE_RISE_PER_HOUR ** (10 / 60) + 1e-9);
    expect(view).toMatchObject({ site: SITE, door: 'people_first', mode: 'auto' });
  });

  it('a flood that pauses between waves for less than the calm keeps the door escalated', async () => {
    const n = twoNodes();
    const steady = { pointer: 57, keyboard: 3 };
    await run(n, 10, steady);
    await run(n, 3, { ...steady, flood: 60 });
    const pause = await run(n, 1.5, steady);
    const wave = await run(n, 3, { ...steady, flood: 60 });
    expect([...pause, ...wave].every((d) => d.a === 'surge' && d.b === 'surge')).toBe(true);
  });

  it('a whole site growing (its share kept) is no surge', async () => {
    const n = twoNodes();
    await run(n, 10, { pointer: 57, keyboard: 3 });
    const grown = await run(n, 10, { pointer: 57 * 20, keyboard: 3 * 20 });
    expect(grown.every((d) => d.a === 'people_first')).toBe(true);
  });

  it('pinned modes: people_first never escalates, strict and surge always are', async () => {
    const n = twoNodes();
    const pinned = { ...POLICY, door: 'people_first' as const };
    for (let i = 0; i < 500; i++) await n.a.countToken(SITE, pinned, true);
    expect(n.a.doorOf(SITE, pinned)).toBe('people_first');
    expect(n.a.view()[0]).toMatchObject({ door: 'people_first', mode: 'people_first', rate: 500 });
    expect(n.a.doorOf('quiet', { ...POLICY, door: 'strict' })).toBe('strict');
    expect(n.a.doorOf('quiet', { ...POLICY, door: 'surge' })).toBe('surge');
    // The same counts are a surge as soon as the site goes back to `auto` (the budget was watched all along).
    expect(n.a.doorOf(SITE, POLICY)).toBe('surge');
  });

  it('per client: client_per_hour keyboard tokens, then over until the hour turns; 0 turns it off', async () => {
    const n = twoNodes(Date.UTC(2030, 0, 1, 10, 0, 0));
    const policy = { ...POLICY, clientPerHour: 3 };
    for (let i = 0; i < 3; i++) {
      expect(await n.a.clientOver('198.51.100.7', policy)).toBe(false);
      await (i % 2 ? n.a : n.b).countClient('198.51.100.7', policy);
    }
    expect(await n.a.clientOver('198.51.100.7', policy)).toBe(true);
    expect(await n.b.clientOver('198.51.100.7', policy)).toBe(true);
    expect(await n.a.clientOver('198.51.100.8', policy)).toBe(false);
    n.clock.t += 60 * M;
    expect(await n.a.clientOver('198.51.100.7', policy)).toBe(false);
    for (let i = 0; i < 10; i++) await n.a.countClient('198.51.100.9', { ...policy, clientPerHour: 0 });
    expect(await n.a.clientOver('198.51.100.9', { ...policy, clientPerHour: 0 })).toBe(false);
  });

  it('a store that cannot answer counts a client as over (fail closed) and leaves the site view as it was', async () => {
    const store = storeWith({
      increment: async () => {
        throw new StoreUnavailableError('down');
      },
    });
    const budget = new KeyboardBudget(store, { minuteMs: M, now: Date.now, timer: false });
    expect(await budget.clientOver('198.51.100.7', POLICY)).toBe(true);
    await budget.countToken(SITE, POLICY, true);
    await budget.refresh();
    expect(budget.doorOf(SITE, POLICY)).toBe('people_first');
  });

  it('a node that starts takes the baseline another node kept at the hour', async () => {
    const n = twoNodes(Date.UTC(2030, 0, 1, 9, 30, 0));
    const busy = POLICY; // floor 3 a minute; the site's people send 6: learned upwards, slowly
    const steady = async (minutes: number) => {
      for (let s = 0; s < minutes * 60; s += 5) {
        n.clock.t += 5_000;
        if (s % 10 === 0) await n.a.countToken(SITE, busy, true);
        await n.a.countToken(SITE, busy, false);
        await n.a.refresh();
      }
    };
    n.a.doorOf(SITE, busy);
    await steady(35); // across 10:00, when the snapshot is kept
    const learned = n.a.view()[0]!.base.rate;
    expect(learned).toBeGreaterThan(3.1);
    expect(n.a.doorOf(SITE, busy)).toBe('people_first');
    const c = new KeyboardBudget(n.store, { minuteMs: M, now: () => n.clock.t, timer: false });
    c.doorOf(SITE, busy);
    expect(c.view()[0]!.base.rate).toBe(3); // not read yet: issuing reads nothing
    await c.refresh();
    expect(c.view()[0]!.base.rate).toBeGreaterThan(3.1);
    expect(c.view()[0]!.base.rate).toBeLessThanOrEqual(learned);
  });

  it("a site of the sites file shows in a budget that never served it, read from the store (each serving thread's own view)", async () => {
    const n = twoNodes();
    for (let i = 0; i < 8; i++) await n.a.countToken(SITE, POLICY, i % 2 === 0);
    expect(n.b.view()).toEqual([]);
    const pinned = { ...POLICY, door: 'strict' as const };
    const shown = await n.b.viewWith([
      [SITE, POLICY],
      ['quiet', pinned],
    ]);
    expect(shown).toEqual([
      expect.objectContaining({ site: SITE, door: 'people_first', mode: 'auto', rate: 4, share: 0.5 }),
      expect.objectContaining({ site: 'quiet', door: 'strict', mode: 'strict', rate: 0, share: 0, base: { rate: 3, share: 0.05 } }),
    ]);
    // Watched from then on: the next view reads what came since without being asked again.
    await n.a.countToken('quiet', pinned, true);
    await n.b.refresh();
    expect(n.b.view().find((v) => v.site === 'quiet')).toMatchObject({ rate: 1, share: 1 });
  });
});

/** Batches split by Redis Cluster slot: one call per slot, answers in the items' order, a failing slot failing only its own items. */
import calculateSlot from 'cluster-key-slot';
import { describe, expect, it } from 'vitest';
import { ONE_SLOT, sendPerSlot } from '../../../src/store/redis/helpers/sendPerSlot.js';

describe('sendPerSlot', () => {
  it('sends one call per slot and answers each item in order', async () => {
    const keys = ['{a}:1', '{b}:1', '{a}:2', '{c}:1', '{b}:2'];
    const calls: string[][] = [];
    const out = await sendPerSlot(keys, calculateSlot, async (ofSlot) => {
      calls.push([...ofSlot]);
      return ofSlot.map((k) => `done ${k}`);
    });
    expect(out).toEqual(keys.map((k) => `done ${k}`));
    expect(calls.sort()).toEqual([['{a}:1', '{a}:2'], ['{b}:1', '{b}:2'], ['{c}:1']].sort());
    for (const call of calls) expect(new Set(call.map(calculateSlot)).size).toBe(1);
  });

  it('a slot whose call fails fails its own items only', async () => {
    const out = await sendPerSlot(['{down}:1', '{up}:1', '{down}:2'], calculateSlot, async (ofSlot) => {
      if (ofSlot[0]!.startsWith('{down}')) throw new Error('CLUSTERDOWN');
      return ofSlot.map(() => 'ok');
    });
    expect(out[1]).toBe('ok');
    expect(out[0]).toBeInstanceOf(Error);
    expect(out[2]).toBeInstanceOf(Error);
  });

  it('a call answering the wrong number of outcomes fails its items', async () => {
    const out = await sendPerSlot(['{a}:1', '{b}:1', '{b}:2'], calculateSlot, async (ofSlot) =>
      ofSlot.length === 2 ? ['only one'] : ['ok'],
    );
    expect(out[0]).toBe('ok');
    expect(out[1]).toBeInstanceOf(Error);
    expect(out[2]).toBeInstanceOf(Error);
  });

  it('one Redis: every item in one call', async () => {
    let calls = 0;
    const out = await sendPerSlot(['{a}:1', '{b}:1', 'c'], ONE_SLOT, async (items) => {
      calls++;
      return items.map((k) => k.length);
    });
    expect(calls).toBe(1);
    expect(out).toEqual([5, 5, 1]);
  });
});

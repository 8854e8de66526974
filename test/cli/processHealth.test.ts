import { describe, expect, it } from 'vitest';
import { processHealth } from '../../src/cli/processHealth.js';

const down = [{ part: 'primary 10.0.0.3:7002, marker shards 2', problem: 'CLUSTERDOWN' }];

describe('processHealth', () => {
  it('is ok when every thread is', () => {
    expect(processHealth([{ ok: true }, { ok: true }])).toEqual({ ok: true });
  });

  it('is not ok while any one thread cannot use the store, and names each such thread', () => {
    expect(processHealth([{ ok: true }, { ok: false, detail: 'redis: reconnecting' }])).toEqual({
      ok: false,
      detail: 'thread 2: redis: reconnecting',
    });
    expect(processHealth([{ ok: false, detail: 'redis: connecting' }, { ok: false }])).toEqual({
      ok: false,
      detail: 'thread 1: redis: connecting; thread 2: store unavailable',
    });
  });

  it('is not ok when a thread did not answer', () => {
    expect(processHealth([{ ok: true }, undefined])).toEqual({ ok: false, detail: 'thread 2: did not answer' });
  });

  it('keeps what is down where only a part is', () => {
    const partial = { ok: true, detail: 'redis: ...', down };
    expect(processHealth([{ ok: true }, partial])).toEqual(partial);
  });
});

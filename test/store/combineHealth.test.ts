import { describe, expect, it } from 'vitest';
import { combineHealth } from '../../src/store/combineHealth.js';

const down = [{ part: 'primary 10.0.0.3:7002, marker shards 2', problem: 'CLUSTERDOWN' }];

describe('combineHealth', () => {
  it('is ok when every part is', () => {
    expect(
      combineHealth([
        ['thread 1', { ok: true }],
        ['thread 2', { ok: true }],
      ]),
    ).toEqual({ ok: true });
  });

  it('is not ok while any one part cannot answer, and names each such part', () => {
    expect(
      combineHealth([
        ['thread 1', { ok: true }],
        ['thread 2', { ok: false, detail: 'redis: reconnecting' }],
      ]),
    ).toEqual({ ok: false, detail: 'thread 2: redis: reconnecting' });
    expect(
      combineHealth([
        ['thread 1', { ok: false, detail: 'redis: connecting' }],
        ['passkey credentials', { ok: false }],
      ]),
    ).toEqual({ ok: false, detail: 'thread 1: redis: connecting; passkey credentials: store unavailable' });
  });

  it('is not ok when a part did not answer', () => {
    expect(
      combineHealth([
        ['thread 1', { ok: true }],
        ['thread 2', undefined],
      ]),
    ).toEqual({ ok: false, detail: 'thread 2: did not answer' });
  });

  it('keeps what is down where only a part of the servers is', () => {
    const partial = { ok: true, detail: 'redis: ...', down };
    expect(
      combineHealth([
        ['thread 1', { ok: true }],
        ['thread 2', partial],
      ]),
    ).toEqual(partial);
  });
});

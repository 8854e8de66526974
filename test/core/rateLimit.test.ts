import { describe, expect, it } from 'vitest';
import { bindingFromAddress, checkRateLimit } from '../../src/core/rateLimit.js';
import { MemoryStore } from '../../src/store/MemoryStore.js';
import type { Store } from '../../src/store/Store.js';
import { storeWith } from '../helpers/storeWith.js';

const MINUTE = 60_000;
const W0 = 28_000_000 * MINUTE; // the start of a window

describe('checkRateLimit', () => {
  it('allows perMinute requests per binding in a window, then answers Retry-After to its end', async () => {
    let now = W0 + 15_000;
    const store = new MemoryStore({ maxMarkers: 10, maxCounters: 100, now: () => now });
    for (let i = 0; i < 3; i++) expect(await checkRateLimit(store, 'verify', '1.2.3.4', 3, now)).toEqual({ ok: true });
    expect(await checkRateLimit(store, 'verify', '1.2.3.4', 3, now)).toEqual({ ok: false, retryAfterSeconds: 45, first: true });
    expect(await checkRateLimit(store, 'verify', '1.2.3.4', 3, now)).toEqual({ ok: false, retryAfterSeconds: 45, first: false });
    // other bindings and other buckets count apart
    expect(await checkRateLimit(store, 'verify', '1.2.3.5', 3, now)).toEqual({ ok: true });
    expect(await checkRateLimit(store, 'challenge', '1.2.3.4', 3, now)).toEqual({ ok: true });
    now = W0 + MINUTE - 1;
    expect(await checkRateLimit(store, 'verify', '1.2.3.4', 3, now)).toEqual({ ok: false, retryAfterSeconds: 1, first: false });
    now = W0 + MINUTE;
    expect(await checkRateLimit(store, 'verify', '1.2.3.4', 3, now)).toEqual({ ok: true });
  });

  it('is off at 0 and never touches the store', async () => {
    const store: Store = storeWith({
      increment: async () => {
        throw new Error('must not be called');
      },
    });
    for (let i = 0; i < 5; i++) expect(await checkRateLimit(store, 'verify', 'a', 0)).toEqual({ ok: true });
  });

  it('a full counter table does not lock out a new binding, and a busy binding stays limited', async () => {
    const now = W0 + 10_000;
    const store = new MemoryStore({ maxMarkers: 1, maxCounters: 100, now: () => now });
    for (let i = 0; i < 3; i++) expect(await checkRateLimit(store, 'verify', 'busy', 3, now)).toEqual({ ok: true });
    // A flood of one request from each of 10,000 new bindings (rotating /64s), 100 times the table.
    for (let i = 0; i < 10_000; i++) {
      expect(await checkRateLimit(store, 'verify', `2001:db8:${i.toString(16)}:0::/64`, 3, now)).toEqual({ ok: true });
      // The busy binding keeps asking, so its counter is never the least recently used one.
      if (i % 10 === 0) expect(await checkRateLimit(store, 'verify', 'busy', 3, now)).toMatchObject({ ok: false, retryAfterSeconds: 50 });
    }
    // A newcomer is counted, not waved through: its fourth request is limited.
    for (let i = 0; i < 3; i++) expect(await checkRateLimit(store, 'verify', 'newcomer', 3, now)).toEqual({ ok: true });
    expect(await checkRateLimit(store, 'verify', 'newcomer', 3, now)).toEqual({ ok: false, retryAfterSeconds: 50, first: true });
    expect(store.size.counters).toBe(100);
  });

  it('counts concurrent requests exactly', async () => {
    const now = W0 + 30_000;
    const store = new MemoryStore({ maxMarkers: 1, maxCounters: 10, now: () => now });
    const results = await Promise.all(Array.from({ length: 50 }, () => checkRateLimit(store, 'v', 'x', 20, now)));
    expect(results.filter((r) => r.ok)).toHaveLength(20);
    expect(results.filter((r) => !r.ok)).toHaveLength(30);
    // Of the 30 refusals, exactly one is the binding's first in the window.
    expect(results.filter((r) => !r.ok && r.first)).toHaveLength(1);
  });
});

describe('bindingFromAddress', () => {
  it.each([
    ['127.0.0.1', '127.0.0.1'],
    [' 10.0.0.7 ', '10.0.0.7'],
    ['::ffff:127.0.0.1', '127.0.0.1'],
    ['::FFFF:7f00:1', '127.0.0.1'],
    ['0000:0000:0000:0000:0000:ffff:7f00:0001', '127.0.0.1'],
    ['[::ffff:192.168.1.20]', '192.168.1.20'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:0DB8:0001:0002:ffff:ffff:ffff:ffff', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::1', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['::', '0:0:0:0::/64'],
    ['64:ff9b::192.0.2.33', '64:ff9b:0:0::/64'],
    ['not an address', 'other:not an address'],
  ])('%s -> %s', (ip, binding) => {
    expect(bindingFromAddress(ip)).toBe(binding);
  });

  it('puts two hosts of one /64 together and two /64s apart', () => {
    expect(bindingFromAddress('2001:db8:a:b::1')).toBe(bindingFromAddress('2001:db8:a:b:ffff::2'));
    expect(bindingFromAddress('2001:db8:a:b::1')).not.toBe(bindingFromAddress('2001:db8:a:c::1'));
  });

  it('caps what it keeps of an unparseable value', () => {
    expect(bindingFromAddress('x'.repeat(1_000))).toHaveLength('other:'.length + 64);
  });
});

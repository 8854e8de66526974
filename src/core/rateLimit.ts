import { isIPv4, isIPv6 } from 'node:net';
import type { Store } from '../store/Store.js';

const WINDOW_MS = 60_000;

export type RateLimitResult =
  | { ok: true }
  | {
      ok: false;
      retryAfterSeconds: number;
      /**
       * This is the binding's first refusal in its window (its count is one past the limit): read
       * from the store's atomic count, so over every thread and node exactly one refusal per
       * client and window says so, and a dashboard counts limited clients without keeping who.
       */
      first: boolean;
    };

/**
 * Counts one request of `binding` against `bucket` in the current fixed one-minute window
 * (aligned to the clock) and says whether it is over `perMinute`. 0 turns the limit off.
 * A full store forgets its least recently used counters rather than refuse, so a flood of new
 * bindings restarts idle counts instead of limiting everyone.
 */
export async function checkRateLimit(
  store: Store,
  bucket: string,
  binding: string,
  perMinute: number,
  now: number = Date.now(),
): Promise<RateLimitResult> {
  if (perMinute <= 0) return { ok: true };
  const window = Math.floor(now / WINDOW_MS);
  const windowEnd = (window + 1) * WINDOW_MS;
  const count = await store.increment(`rate:${bucket}:${binding}:${window}`, windowEnd - now);
  if (count <= perMinute) return { ok: true };
  return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((windowEnd - now) / 1000)), first: count === perMinute + 1 };
}

/**
 * The rate-limit binding of a peer address: an IPv4 address itself (also when written as an
 * IPv4-mapped IPv6 address), an IPv6 address's /64 prefix (one host usually owns a whole /64),
 * and anything unparseable as itself, lowercased and capped.
 */
export function bindingFromAddress(ip: string): string {
  let a = ip.trim().toLowerCase();
  if (a.startsWith('[') && a.endsWith(']')) a = a.slice(1, -1);
  const zone = a.indexOf('%');
  if (zone !== -1) a = a.slice(0, zone);
  if (isIPv4(a)) return a;
  if (!isIPv6(a)) return `other:${a.slice(0, 64)}`;
  const groups = expandIPv6(a);
  const mapped = groups[5] === 0xffff && groups.slice(0, 5).every((g) => g === 0);
  if (mapped) {
    const hi = groups[6] as number;
    const lo = groups[7] as number;
    return `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address (with `::` and a dotted IPv4 tail resolved). */
function expandIPv6(a: string): number[] {
  let text = a;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [b0, b1, b2, b3] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((b0 << 8) | b1).toString(16)}:${((b2 << 8) | b3).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head === '' ? [] : head.split(':');
  const right = tail === undefined || tail === '' ? [] : tail.split(':');
  const zeros = new Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((g) => parseInt(g, 16));
}

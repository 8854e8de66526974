import type { RawEvent } from '../../kernel/types.js';
import { sha256 } from '../sha256.js';

/**
 * kernel.md section 6: lowercase hex SHA-256 of the JSON text of the events as
 * `[t, x, y, type, pointer_type or null, coalesced_count or null]`, numbers serialised by
 * JSON.stringify exactly as parsed. (JSON.stringify also keeps the numbers out of V8's
 * number-to-string cache, whose entries would be promoted to the old generation.)
 */
export function eventsDigest(events: readonly RawEvent[]): string {
  const rows = new Array<unknown[]>(events.length);
  for (let i = 0; i < events.length; i++) {
    const e = events[i]!;
    rows[i] = [e.t, e.x, e.y, e.type, e.pointer_type ?? null, e.coalesced_count ?? null];
  }
  return sha256(JSON.stringify(rows), 'hex');
}

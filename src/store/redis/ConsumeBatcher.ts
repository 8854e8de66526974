import type { ScriptCall } from './helpers/defineScripts.js';
import { encodeConsumes } from './scripts/consumeEachOnce.js';

/** A marker's verdict, or the fence found in place of the one the caller knew. */
export type ConsumeReply = 'fresh' | 'again' | 'used' | { fence: string | null };

interface Consume {
  marker: string;
  ttlMs: number;
  tag: string;
  resolve(reply: ConsumeReply): void;
  reject(error: unknown): void;
}

/** The consumes of one shard checked against one fence value. */
interface Group {
  fenceKey: string;
  fence: string;
  consumes: Consume[];
}

/** Most markers in one script call, so one call never holds Redis for long. */
const MAX_BATCH = 128;

/** consumeEachOnce's letter for each verdict. */
const VERDICT_OF: Readonly<Record<string, ConsumeReply>> = { f: 'fresh', a: 'again', u: 'used' };
const VERDICT_LETTERS = /^[fau]*$/;

/**
 * Gathers the consumes made in the same event-loop turn (the requests that arrived together) into
 * one consumeEachOnce call, grouped by shard: the same guarantee for each marker, one command for
 * the lot instead of one per request. Each caller gets its own marker's verdict.
 */
export class ConsumeBatcher {
  readonly #consumeEachOnce: ScriptCall;
  /** The open groups by fence key: a shard has one group per call. */
  #open = new Map<string, Group>();
  #count = 0;
  #scheduled = false;
  readonly #flushScheduled = (): void => {
    this.#scheduled = false;
    this.#flush();
  };

  constructor(consumeEachOnce: ScriptCall) {
    this.#consumeEachOnce = consumeEachOnce;
  }

  consume(fenceKey: string, fence: string, marker: string, ttlMs: number, tag: string): Promise<ConsumeReply> {
    let group = this.#open.get(fenceKey);
    if (group !== undefined && group.fence !== fence) {
      // The shard's fence changed within the turn (adopted after a loss): what was gathered
      // goes against the value it was read with, this consume starts the next call.
      this.#flush();
      group = undefined;
    }
    if (group === undefined) {
      group = { fenceKey, fence, consumes: [] };
      this.#open.set(fenceKey, group);
    }
    const { consumes } = group;
    const reply = new Promise<ConsumeReply>((resolve, reject) => consumes.push({ marker, ttlMs, tag, resolve, reject }));
    if (++this.#count >= MAX_BATCH) {
      this.#flush();
    } else if (!this.#scheduled) {
      this.#scheduled = true;
      // After the I/O callbacks of this turn: every request that arrived with this one is in.
      setImmediate(this.#flushScheduled);
    }
    return reply;
  }

  #flush(): void {
    if (this.#count === 0) return;
    const groups = [...this.#open.values()];
    this.#open = new Map();
    this.#count = 0;
    const keys: string[] = [];
    for (const group of groups) {
      keys.push(group.fenceKey);
      for (const c of group.consumes) keys.push(c.marker);
    }
    this.#consumeEachOnce(keys, [encodeConsumes(groups)]).then(
      (replies) => {
        if (!Array.isArray(replies) || replies.length !== groups.length) {
          rejectAll(groups, new Error(`unexpected consume reply ${JSON.stringify(replies)}`));
          return;
        }
        for (let i = 0; i < groups.length; i++) settle(groups[i]!.consumes, replies[i]);
      },
      (error: unknown) => rejectAll(groups, error),
    );
  }
}

/** Hands each consume of a group its verdict (or the fence that moved). */
function settle(consumes: Consume[], reply: unknown): void {
  if (typeof reply === 'string' && reply.length === consumes.length && VERDICT_LETTERS.test(reply)) {
    for (let i = 0; i < consumes.length; i++) consumes[i]!.resolve(VERDICT_OF[reply[i]!]!);
    return;
  }
  if (Array.isArray(reply) && reply[0] === 'fence') {
    const found = typeof reply[1] === 'string' ? reply[1] : null;
    for (const c of consumes) c.resolve({ fence: found });
    return;
  }
  const error = new Error(`unexpected consume reply ${JSON.stringify(reply)}`);
  for (const c of consumes) c.reject(error);
}

function rejectAll(groups: readonly Group[], error: unknown): void {
  for (const group of groups) for (const c of group.consumes) c.reject(error);
}

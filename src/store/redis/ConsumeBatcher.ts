import type { ScriptCall } from './helpers/defineScripts.js';

/** A marker's verdict, or the fence found in place of the one the caller knew. */
export type ConsumeReply = 'fresh' | 'again' | 'used' | { fence: string | null };

interface Waiting {
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
  waiting: Waiting[];
}

/** Most markers in one script call, so one call never holds Redis for long. */
const MAX_BATCH = 128;

/**
 * Gathers the consumes made in the same event-loop turn (the requests that arrived together) into
 * one consumeEachOnce call, grouped by shard: the same guarantee for each marker, one command for
 * the lot instead of one per request. Each caller gets its own marker's verdict.
 */
export class ConsumeBatcher {
  readonly #consumeEachOnce: ScriptCall;
  #open = new Map<string, Group>();
  #count = 0;
  #scheduled = false;

  constructor(consumeEachOnce: ScriptCall) {
    this.#consumeEachOnce = consumeEachOnce;
  }

  consume(fenceKey: string, fence: string, marker: string, ttlMs: number, tag: string): Promise<ConsumeReply> {
    const id = `${fenceKey}\n${fence}`;
    let group = this.#open.get(id);
    if (group === undefined) {
      group = { fenceKey, fence, waiting: [] };
      this.#open.set(id, group);
    }
    const reply = new Promise<ConsumeReply>((resolve, reject) => group.waiting.push({ marker, ttlMs, tag, resolve, reject }));
    if (++this.#count >= MAX_BATCH) {
      this.#flush();
    } else if (!this.#scheduled) {
      this.#scheduled = true;
      // After the I/O callbacks of this turn: every request that arrived with this one is in.
      setImmediate(() => {
        this.#scheduled = false;
        this.#flush();
      });
    }
    return reply;
  }

  #flush(): void {
    if (this.#count === 0) return;
    const groups = [...this.#open.values()];
    this.#open = new Map();
    this.#count = 0;
    void this.#send(groups);
  }

  async #send(groups: Group[]): Promise<void> {
    try {
      const keys = groups.flatMap((g) => [g.fenceKey, ...g.waiting.map((w) => w.marker)]);
      const args = groups.flatMap((g) => [g.waiting.length, g.fence, ...g.waiting.flatMap((w) => [w.ttlMs, w.tag])]);
      const replies = await this.#consumeEachOnce(keys, args);
      if (!Array.isArray(replies) || replies.length !== groups.length) throw new Error(`unexpected consume reply ${JSON.stringify(replies)}`);
      groups.forEach((group, i) => settle(group.waiting, replies[i]));
    } catch (error) {
      for (const group of groups) for (const w of group.waiting) w.reject(error);
    }
  }
}

/** Hands each waiting consume of a group its verdict (or the fence that moved). */
function settle(waiting: Waiting[], reply: unknown): void {
  if (Array.isArray(reply) && reply[0] === 'fence') {
    const found = typeof reply[1] === 'string' ? reply[1] : null;
    for (const w of waiting) w.resolve({ fence: found });
    return;
  }
  if (!Array.isArray(reply) || reply.length !== waiting.length) {
    const error = new Error(`unexpected consume reply ${JSON.stringify(reply)}`);
    for (const w of waiting) w.reject(error);
    return;
  }
  waiting.forEach((w, i) => w.resolve(reply[i] as ConsumeReply));
}

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

interface Batch {
  fenceKey: string;
  fence: string;
  waiting: Waiting[];
}

/** Most markers in one script call, so one call never holds Redis for long. */
const MAX_BATCH = 128;

/**
 * Gathers the consumes of one shard made in the same event-loop turn (the requests that arrived
 * together) into one consumeEachOnce call: the same guarantee for each marker, a fraction of the
 * client's cost per command. Each caller gets its own marker's verdict.
 */
export class ConsumeBatcher {
  readonly #consumeEachOnce: ScriptCall;
  readonly #open = new Map<string, Batch>();
  #scheduled = false;

  constructor(consumeEachOnce: ScriptCall) {
    this.#consumeEachOnce = consumeEachOnce;
  }

  consume(fenceKey: string, fence: string, marker: string, ttlMs: number, tag: string): Promise<ConsumeReply> {
    const id = `${fenceKey}\n${fence}`;
    let batch = this.#open.get(id);
    if (batch === undefined) {
      batch = { fenceKey, fence, waiting: [] };
      this.#open.set(id, batch);
    }
    const reply = new Promise<ConsumeReply>((resolve, reject) => batch.waiting.push({ marker, ttlMs, tag, resolve, reject }));
    if (batch.waiting.length >= MAX_BATCH) {
      this.#open.delete(id);
      void this.#send(batch);
    } else if (!this.#scheduled) {
      this.#scheduled = true;
      // After the I/O callbacks of this turn: every request that arrived with this one is in.
      setImmediate(() => this.#flush());
    }
    return reply;
  }

  #flush(): void {
    this.#scheduled = false;
    const batches = [...this.#open.values()];
    this.#open.clear();
    for (const batch of batches) void this.#send(batch);
  }

  async #send({ fenceKey, fence, waiting }: Batch): Promise<void> {
    try {
      const keys = [fenceKey, ...waiting.map((w) => w.marker)];
      const args = [fence, ...waiting.flatMap((w) => [w.ttlMs, w.tag])];
      const reply = await this.#consumeEachOnce(keys, args);
      if (Array.isArray(reply) && reply[0] === 'fence') {
        const found = typeof reply[1] === 'string' ? reply[1] : null;
        for (const w of waiting) w.resolve({ fence: found });
        return;
      }
      if (!Array.isArray(reply) || reply.length !== waiting.length) throw new Error(`unexpected consume reply ${JSON.stringify(reply)}`);
      waiting.forEach((w, i) => w.resolve(reply[i] as ConsumeReply));
    } catch (error) {
      for (const w of waiting) w.reject(error);
    }
  }
}

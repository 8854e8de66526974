import type { ScriptCall } from './helpers/defineScripts.js';
import { ONE_SLOT, type SlotOf, sendPerSlot } from './helpers/sendPerSlot.js';
import { type ItemOutcome, TurnBatcher } from './helpers/TurnBatcher.js';
import { encodeCounts } from './scripts/countEachInWindow.js';

interface Increment {
  counter: string;
  windowMs: number;
  by: number;
}

/**
 * Gathers the increments made in the same event-loop turn (the rate limits of the requests that
 * arrived together) into one countEachInWindow call (on a Redis Cluster, one per slot): one command
 * and one write for the lot. Each caller gets its own counter's count.
 */
export class IncrementBatcher {
  readonly #batcher: TurnBatcher<Increment, number>;

  constructor(countEachInWindow: ScriptCall, slotOf: SlotOf = ONE_SLOT) {
    this.#batcher = new TurnBatcher((increments) =>
      sendPerSlot(
        increments,
        (i) => slotOf(i.counter),
        (ofSlot) => sendIncrements(countEachInWindow, ofSlot),
      ),
    );
  }

  /** Adds `by` (a whole number >= 0; 0 reads) to `counter`, which lives `windowMs` (>= 1) from its first use. */
  increment(counter: string, windowMs: number, by: number): Promise<number> {
    return this.#batcher.add({ counter, windowMs, by });
  }
}

async function sendIncrements(countEachInWindow: ScriptCall, increments: readonly Increment[]): Promise<ItemOutcome<number>[]> {
  const counts = await countEachInWindow(
    increments.map((i) => i.counter),
    [encodeCounts(increments)],
  );
  if (!Array.isArray(counts)) throw new Error(`unexpected count reply ${JSON.stringify(counts)}`);
  return counts.map((c) => (typeof c === 'number' ? c : new Error(`unexpected count ${JSON.stringify(c)}`)));
}

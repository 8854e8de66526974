/** Most operations in one script call by default, so one call never holds Redis for long. */
const MAX_PER_CALL = 128;

/** What a batch's sender answers for each item: its reply, or the error that item alone failed with. */
export type ItemOutcome<Reply> = Reply | Error;

/**
 * Gathers the items added in one event-loop turn (the requests that arrived together) and sends
 * them with one call of `send`, after that turn's I/O callbacks, or at once when `maxBatch` have
 * gathered so no call grows without bound. Each caller gets its own item's reply; a call that
 * fails, or answers a different number of outcomes than it was given items, rejects every item it
 * carried.
 */
export class TurnBatcher<Item, Reply> {
  readonly #send: (items: readonly Item[]) => Promise<readonly ItemOutcome<Reply>[]>;
  readonly #maxBatch: number;
  #items: Item[] = [];
  #waiters: { resolve(reply: Reply): void; reject(error: unknown): void }[] = [];
  #scheduled = false;
  readonly #flushScheduled = (): void => {
    this.#scheduled = false;
    this.#flush();
  };

  /**
   * @param send Sends one batch; answers one outcome per item, in the items' order.
   * @param maxBatch Most items in one call.
   */
  constructor(send: (items: readonly Item[]) => Promise<readonly ItemOutcome<Reply>[]>, maxBatch = MAX_PER_CALL) {
    this.#send = send;
    this.#maxBatch = maxBatch;
  }

  add(item: Item): Promise<Reply> {
    const reply = new Promise<Reply>((resolve, reject) => this.#waiters.push({ resolve, reject }));
    this.#items.push(item);
    if (this.#items.length >= this.#maxBatch) {
      this.#flush();
    } else if (!this.#scheduled) {
      this.#scheduled = true;
      // After the I/O callbacks of this turn: every request that arrived with this one is in.
      setImmediate(this.#flushScheduled);
    }
    return reply;
  }

  #flush(): void {
    const items = this.#items;
    const waiters = this.#waiters;
    if (items.length === 0) return;
    this.#items = [];
    this.#waiters = [];
    const rejectAll = (error: unknown) => {
      for (const w of waiters) w.reject(error);
    };
    let sent: Promise<readonly ItemOutcome<Reply>[]>;
    try {
      sent = this.#send(items);
    } catch (error) {
      rejectAll(error);
      return;
    }
    sent.then((outcomes) => {
      if (outcomes.length !== items.length) {
        rejectAll(new Error(`a batch of ${items.length} was answered with ${outcomes.length} outcomes`));
        return;
      }
      for (let i = 0; i < outcomes.length; i++) {
        const outcome = outcomes[i]!;
        if (outcome instanceof Error) waiters[i]!.reject(outcome);
        else waiters[i]!.resolve(outcome);
      }
    }, rejectAll);
  }
}

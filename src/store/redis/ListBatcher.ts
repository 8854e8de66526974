import type { ScriptCall } from './helpers/defineScripts.js';
import { ONE_SLOT, type SlotOf, sendPerSlot } from './helpers/sendPerSlot.js';
import { type ItemOutcome, TurnBatcher } from './helpers/TurnBatcher.js';
import { encodeCaps } from './scripts/appendEachCapped.js';

interface Append {
  list: string;
  item: Buffer;
  cap: number;
  ttlMs: number;
}

/**
 * Gathers the list reads and the list appends made in the same event-loop turn (the duplicate-
 * trace lookups and memories of the requests that arrived together) into one readEachList and one
 * appendEachCapped call (on a Redis Cluster, one per slot): one command each for the lot instead of
 * one per request. Each caller
 * gets its own lists, or its own append's completion.
 */
export class ListBatcher {
  readonly #reads: TurnBatcher<readonly string[], Buffer[][]>;
  readonly #appends: TurnBatcher<Append, true>;

  constructor(scripts: { readEachList: ScriptCall; appendEachCapped: ScriptCall }, slotOf: SlotOf = ONE_SLOT) {
    this.#reads = new TurnBatcher((reads) => sendReads(scripts.readEachList, slotOf, reads));
    this.#appends = new TurnBatcher((appends) =>
      sendPerSlot(
        appends,
        (a) => slotOf(a.list),
        (ofSlot) => sendAppends(scripts.appendEachCapped, ofSlot),
      ),
    );
  }

  /** The items of each of `lists`, oldest first. */
  read(lists: readonly string[]): Promise<Buffer[][]> {
    return this.#reads.add(lists);
  }

  /** Appends `item` to `list`, keeping its newest `cap` (>= 1) items, the list living `ttlMs` (>= 1) from now. */
  append(list: string, item: Buffer, cap: number, ttlMs: number): Promise<true> {
    return this.#appends.add({ list, item, cap, ttlMs });
  }
}

/** The lists of each read; a read one of whose lists could not be read fails. */
async function sendReads(
  readEachList: ScriptCall,
  slotOf: SlotOf,
  reads: readonly (readonly string[])[],
): Promise<ItemOutcome<Buffer[][]>[]> {
  const lists = await sendPerSlot(reads.flat(), slotOf, (keys) => readListsInOneCall(readEachList, keys));
  let at = 0;
  return reads.map((keys) => {
    const ofRead = lists.slice(at, (at += keys.length));
    return ofRead.find((l): l is Error => l instanceof Error) ?? (ofRead as Buffer[][]);
  });
}

async function readListsInOneCall(readEachList: ScriptCall, keys: readonly string[]): Promise<Buffer[][]> {
  const replies = await readEachList(keys, []);
  if (!Array.isArray(replies) || replies.length !== keys.length || !replies.every((r) => Array.isArray(r) && r.every(Buffer.isBuffer))) {
    throw new Error('unexpected list reply');
  }
  return replies as Buffer[][];
}

async function sendAppends(appendEachCapped: ScriptCall, appends: readonly Append[]): Promise<ItemOutcome<true>[]> {
  const reply = await appendEachCapped(
    appends.map((a) => a.list),
    [encodeCaps(appends), ...appends.map((a) => a.item)],
  );
  if (reply !== appends.length) throw new Error(`unexpected append reply ${JSON.stringify(reply)}`);
  return appends.map(() => true);
}

import type { ItemOutcome } from './TurnBatcher.js';

/** The Redis Cluster slot of a key; the same number for every key when Redis is one server. */
export type SlotOf = (key: string) => number;

/** Every key in one slot: one Redis (direct or through Sentinel). */
export const ONE_SLOT: SlotOf = () => 0;

/**
 * Sends `items` with one `send` call per slot (a Redis Cluster runs a script only when all its keys
 * share a slot), the calls at once, and answers each item's outcome in the items' order. A call
 * that fails fails its own items only: a slot whose primary is down costs only its keys.
 */
export async function sendPerSlot<Item, Reply>(
  items: readonly Item[],
  slotOf: (item: Item) => number,
  send: (items: readonly Item[]) => Promise<readonly ItemOutcome<Reply>[]>,
): Promise<ItemOutcome<Reply>[]> {
  const bySlot = new Map<number, number[]>();
  for (let i = 0; i < items.length; i++) {
    const slot = slotOf(items[i]!);
    const positions = bySlot.get(slot);
    if (positions === undefined) bySlot.set(slot, [i]);
    else positions.push(i);
  }
  if (bySlot.size <= 1) return [...(await send(items))];
  const outcomes = new Array<ItemOutcome<Reply>>(items.length);
  await Promise.all(
    Array.from(bySlot.values(), async (positions) => {
      const answered = await send(positions.map((i) => items[i]!)).then(
        (replies) =>
          replies.length === positions.length
            ? replies
            : positions.map(() => new Error(`${positions.length} items answered with ${replies.length} outcomes`)),
        (e: unknown) => positions.map(() => (e instanceof Error ? e : new Error(String(e)))),
      );
      positions.forEach((at, j) => (outcomes[at] = answered[j]!));
    }),
  );
  return outcomes;
}

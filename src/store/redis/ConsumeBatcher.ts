import type { ScriptCall } from './helpers/defineScripts.js';
import { ONE_SLOT, type SlotOf, sendPerSlot } from './helpers/sendPerSlot.js';
import { type ItemOutcome, TurnBatcher } from './helpers/TurnBatcher.js';
import { encodeConsumes } from './scripts/consumeEachOnce.js';

/** A marker's verdict, or the fence found in place of the one the caller knew. */
export type ConsumeReply = 'fresh' | 'again' | 'used' | { fence: string | null };

interface Consume {
  fenceKey: string;
  fence: string;
  marker: string;
  ttlMs: number;
  /** Epoch ms: compared with the fence's cutoff inside the script. */
  issuedAt: number;
  tag: string;
}

/** The consumes of one shard checked against one fence value, and where each came in the batch. */
interface Group {
  fenceKey: string;
  fence: string;
  consumes: Consume[];
  positions: number[];
}

/** consumeEachOnce's letter for each verdict. */
const VERDICT_OF: Readonly<Record<string, ConsumeReply>> = { f: 'fresh', a: 'again', u: 'used' };
const VERDICT_LETTERS = /^[fau]*$/;

/**
 * Gathers the consumes made in the same event-loop turn into one consumeEachOnce call, grouped by
 * shard and by the fence value each was read with (a fence adopted within the turn makes a second
 * group of that shard): the same guarantee for each marker, one command for the lot instead of one
 * per request (on a Redis Cluster, one per slot: a shard is one hash tag). Each caller gets its
 * own marker's verdict.
 */
export class ConsumeBatcher {
  readonly #batcher: TurnBatcher<Consume, ConsumeReply>;

  constructor(consumeEachOnce: ScriptCall, slotOf: SlotOf = ONE_SLOT) {
    this.#batcher = new TurnBatcher((consumes) => sendConsumes(consumeEachOnce, slotOf, consumes));
  }

  consume(fenceKey: string, fence: string, marker: string, ttlMs: number, issuedAt: number, tag: string): Promise<ConsumeReply> {
    return this.#batcher.add({ fenceKey, fence, marker, ttlMs, issuedAt, tag });
  }
}

async function sendConsumes(
  consumeEachOnce: ScriptCall,
  slotOf: SlotOf,
  consumes: readonly Consume[],
): Promise<ItemOutcome<ConsumeReply>[]> {
  const groups = groupByFence(consumes);
  const replies = await sendPerSlot(
    groups,
    (g) => slotOf(g.fenceKey),
    (ofSlot) => sendGroups(consumeEachOnce, ofSlot),
  );
  const outcomes = new Array<ItemOutcome<ConsumeReply>>(consumes.length);
  for (let i = 0; i < groups.length; i++) {
    const { positions } = groups[i]!;
    const reply = replies[i];
    const verdicts = reply instanceof Error ? new Array<Error>(positions.length).fill(reply) : verdictsOf(reply, positions.length);
    for (let j = 0; j < positions.length; j++) outcomes[positions[j]!] = verdicts[j]!;
  }
  return outcomes;
}

/** One consumeEachOnce call for `groups` (all in one slot): each group's reply, unread. */
async function sendGroups(consumeEachOnce: ScriptCall, groups: readonly Group[]): Promise<unknown[]> {
  const keys: string[] = [];
  for (const group of groups) {
    keys.push(group.fenceKey);
    for (const c of group.consumes) keys.push(c.marker);
  }
  const replies = await consumeEachOnce(keys, [encodeConsumes(groups)]);
  if (!Array.isArray(replies) || replies.length !== groups.length) throw new Error(`unexpected consume reply ${JSON.stringify(replies)}`);
  return replies as unknown[];
}

function groupByFence(consumes: readonly Consume[]): Group[] {
  const byShard = new Map<string, Group[]>();
  const groups: Group[] = [];
  for (let i = 0; i < consumes.length; i++) {
    const c = consumes[i]!;
    let ofShard = byShard.get(c.fenceKey);
    if (ofShard === undefined) byShard.set(c.fenceKey, (ofShard = []));
    let group = ofShard.find((g) => g.fence === c.fence);
    if (group === undefined) {
      group = { fenceKey: c.fenceKey, fence: c.fence, consumes: [], positions: [] };
      ofShard.push(group);
      groups.push(group);
    }
    group.consumes.push(c);
    group.positions.push(i);
  }
  return groups;
}

/** One group's reply as each of its consumes' outcome: its verdict, the fence that moved, or an error. */
function verdictsOf(reply: unknown, count: number): ItemOutcome<ConsumeReply>[] {
  if (typeof reply === 'string' && reply.length === count && VERDICT_LETTERS.test(reply)) {
    return Array.from(reply, (letter) => VERDICT_OF[letter]!);
  }
  if (Array.isArray(reply) && reply[0] === 'fence') {
    const moved = { fence: typeof reply[1] === 'string' ? reply[1] : null };
    return new Array<ConsumeReply>(count).fill(moved);
  }
  return new Array<Error>(count).fill(new Error(`unexpected consume reply ${JSON.stringify(reply)}`));
}

/**
 * Each item's weight in a fit where each class (people, bots) weighs 1 in all and every group
 * within a class (a person, a people model, a bot family) as much as any other in it: 1 / (the
 * items of its group * the groups of its class). So a person who left many traces, or a family
 * sampled more, does not set the fit alone. The order of `items` is kept.
 */
export function groupWeights<T>(items: readonly T[], isHuman: (item: T) => boolean, groupOf: (item: T, index: number) => string): number[] {
  const keys = items.map((item, i) => `${isHuman(item) ? 'person' : 'bot'}:${groupOf(item, i)}`);
  const count = new Map<string, number>();
  for (const key of keys) count.set(key, (count.get(key) ?? 0) + 1);
  let personGroups = 0;
  for (const key of count.keys()) if (key.startsWith('person:')) personGroups++;
  const botGroups = count.size - personGroups;
  return keys.map((key, i) => 1 / (count.get(key)! * (isHuman(items[i]!) ? personGroups : botGroups)));
}

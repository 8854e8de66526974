/**
 * The flood bench's timetable and actors, in the budget's minutes (KEYBOARD_BUDGET_MINUTE_MS,
 * compressed): a steady mix of pointer people and keyboard people, then a flood of keyboard
 * scripts at FLOOD_FACTOR times the people's keyboard rate, then the steady mix again.
 */

/** The budget's minute in this bench, ms (a real minute is 60000): the bench's clock runs 4 times faster. */
export const BENCH_MINUTE_MS = Number(process.env.BENCH_MINUTE_MS ?? 15_000);
/** Budget minutes of each phase. */
export const PHASES = { before: 8, flood: 10, after: 10 } as const;
/** Per budget minute: pointer people's tokens, keyboard people's (the site's keyboard baseline and its floor). */
export const POINTER_PER_MINUTE = 60;
export const KEYBOARD_PER_MINUTE = 6;
/** The flood, as a multiple of the keyboard baseline. */
export const FLOOD_FACTOR = 20;
/** Distinct client addresses the scripts come from (127.x.y.z, forwarded by a trusted proxy). */
export const SCRIPT_CLIENTS = 400;

export type Phase = keyof typeof PHASES;

/** The phase `ms` after the start falls in (undefined past the end). */
export function phaseAt(ms: number): Phase | undefined {
  const minute = ms / BENCH_MINUTE_MS;
  if (minute < PHASES.before) return 'before';
  if (minute < PHASES.before + PHASES.flood) return 'flood';
  if (minute < PHASES.before + PHASES.flood + PHASES.after) return 'after';
  return undefined;
}

/** Evenly spaced arrival times (ms from the start) of `perMinute` over `fromMinute`..`toMinute`, offset by `phase` (0-1) of a gap. */
export function arrivals(perMinute: number, fromMinute: number, toMinute: number, phase = 0.5): number[] {
  const gap = BENCH_MINUTE_MS / perMinute;
  const out: number[] = [];
  for (let t = fromMinute * BENCH_MINUTE_MS + gap * phase; t < toMinute * BENCH_MINUTE_MS; t += gap) out.push(t);
  return out;
}

/** The i-th address of a kind of client: 127.<kind>.<hi>.<lo>. */
export function clientAddress(kind: number, i: number): string {
  return `127.${kind}.${(i >> 8) & 255}.${(i & 255) + 1}`;
}

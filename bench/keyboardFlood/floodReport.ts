import type { Row, Section } from '../section.js';
import { BENCH_MINUTE_MS, FLOOD_FACTOR, KEYBOARD_PER_MINUTE, PHASES, type Phase, SCRIPT_CLIENTS, phaseAt } from './floodPlan.js';

/** One solve as the bench saw it (times in ms from the start). */
export interface FloodOutcome {
  kind: string;
  fetchedAt: number;
  submittedAt: number;
  ok: boolean;
  method?: string | undefined;
  error?: string | undefined;
}

/** The door a node announced at a moment (ms from the start). */
export interface DoorReading {
  t: number;
  node: number;
  door: string;
}

const minutes = (ms: number) => ms / BENCH_MINUTE_MS;
const round = (x: number, places = 2) => Math.round(x * 10 ** places) / 10 ** places;

/**
 * The flood bench's section: the scripts' tokens per budget minute in each phase against the
 * keyboard baseline, the escalation's beginning and end per node, and each keyboard people model's
 * acceptance in each phase (a person counts in a phase when the whole solve fell in it).
 */
export function floodReport(outcomes: readonly FloodOutcome[], doors: readonly DoorReading[]): Section {
  const floodFrom = PHASES.before * BENCH_MINUTE_MS;
  const floodTo = (PHASES.before + PHASES.flood) * BENCH_MINUTE_MS;
  const rows: Row[] = [];
  const phases: Phase[] = ['before', 'flood', 'after'];
  for (const phase of phases) {
    const within = outcomes.filter((o) => phaseAt(o.submittedAt) === phase);
    const scripts = within.filter((o) => o.kind === 'script');
    const pointer = within.filter((o) => o.kind === 'pointer');
    const scriptTokens = scripts.filter((o) => o.ok).length;
    rows.push({
      name: `scripts, ${phase}`,
      submitted: scripts.length,
      tokens: scriptTokens,
      tokens_per_minute: round(scriptTokens / PHASES[phase]),
      x_baseline: round(scriptTokens / PHASES[phase] / KEYBOARD_PER_MINUTE),
      pointer_tokens_per_minute: round(pointer.filter((o) => o.ok).length / PHASES[phase]),
    });
  }
  // Keyboard people by the door they met: a person counts where the whole solve, from the
  // challenge to /verify, fell (node 1's door; the two nodes' are compared below).
  const first = doors.filter((d) => d.node === 0);
  const began = first.find((d) => d.t >= floodFrom && d.door === 'surge')?.t ?? Infinity;
  const ended = first.find((d) => d.t >= Math.max(floodTo, began) && d.door === 'people_first')?.t ?? Infinity;
  const windows: [string, number, number][] = [
    ['before the flood', 0, floodFrom],
    ['in the escalation', began, ended],
    ['after the escalation', ended, Infinity],
  ];
  for (const [label, from, to] of windows) {
    const people = outcomes.filter(
      (o) => o.kind !== 'script' && o.kind !== 'pointer' && o.fetchedAt >= from && o.submittedAt < to && Number.isFinite(o.submittedAt),
    );
    const kinds = [...new Set(people.map((o) => o.kind))].sort();
    for (const kind of kinds) {
      const mine = people.filter((o) => o.kind === kind);
      const ok = mine.filter((o) => o.ok);
      rows.push({
        name: `keyboard people (${kind} MODEL), ${label}`,
        submitted: mine.length,
        accepted: ok.length,
        acceptance: mine.length === 0 ? '' : round(ok.length / mine.length, 3),
        strict: ok.filter((o) => o.method === 'keyboard_strict').length,
        refusals: [...new Set(mine.filter((o) => !o.ok).map((o) => o.error))].join(' '),
      });
    }
  }
  const notes: string[] = [];
  for (const node of [0, 1]) {
    const mine = doors.filter((d) => d.node === node);
    const began = mine.find((d) => d.t >= floodFrom && d.door === 'surge');
    const ended = mine.find((d) => d.t >= Math.max(floodTo, began?.t ?? 0) && d.door === 'people_first');
    const last = mine.at(-1);
    rows.push({
      name: `node ${node + 1}: escalation`,
      began_min_after_flood_began: began === undefined ? 'never' : round(minutes(began.t - floodFrom)),
      ended_min_after_flood_ended: ended === undefined ? `not by the end (${last?.door ?? '?'})` : round(minutes(ended.t - floodTo)),
    });
    const early = mine.find((d) => d.t < floodFrom && d.door === 'surge');
    if (early !== undefined) notes.push(`node ${node + 1} was in a surge before the flood, at ${round(minutes(early.t))} min`);
  }
  const flood = rows[1]!;
  notes.push(
    `time compressed: a budget minute is ${BENCH_MINUTE_MS / 1000} s (KEYBOARD_BUDGET_MINUTE_MS); traces take their own real time, so a screen-reader solve spans several of these minutes`,
    `baseline ${KEYBOARD_PER_MINUTE} keyboard tokens a minute (the site's floor_per_minute); flood ${FLOOD_FACTOR}x from ${SCRIPT_CLIENTS} addresses for ${PHASES.flood} minutes: scripts obtained ${flood.x_baseline}x the baseline per minute (target: at most 3)`,
    'pointer people are straight stand-in traces scored in shadow mode; keyboard people are models, not recordings',
    'a keyboard person counts where the whole solve (challenge to /verify) fell: a screen-reader solve takes about two real minutes, several compressed ones',
  );
  return { name: 'keyboard flood (two nodes over one Redis)', rows, notes };
}

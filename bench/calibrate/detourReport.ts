import type { Kernel } from '../../src/kernel/index.js';
import { replaysWithDetour } from './detourReplay.js';
import { acceptedByScorer, byUser, type Scored } from './evaluate.js';
import { CAPTURES, type Capture } from './samples.js';
import { wilson, type Rate } from './stats.js';

/** Extra steps the what-if replay allows, beyond the cells two samples are apart. */
export const DETOUR_SLACKS = [2, 4, 6] as const;

export interface DetourRates {
  slack: number;
  /** Humans by capture, macro over users: replay, and replay then the score. */
  humans: Record<Capture, { replay: Rate; endToEnd: Rate }>;
  /** Bots of every family together: replay, and replay then the score. */
  bots: { replay: Rate; endToEnd: Rate };
}

export interface DetourReport {
  /** Held-out traces where the what-if at slack 0 and the kernel's segment walk disagree (must be 0). */
  disagreements: number;
  rates: DetourRates[];
}

/**
 * Acceptance of the held-out samples if kernel.md section 4 allowed a bounded detour
 * (`detourReplay.ts`): a trace replays when the kernel accepts it or the detour walk reaches the
 * exit; end to end, it must also score at the threshold (the scorer-alone score).
 */
export function detourReport(kernel: Kernel, scored: Record<Capture, Scored[]>, threshold: number): DetourReport {
  const mazes = new Map<string, ReturnType<Kernel['generateMaze']>>();
  const mazeOf = (s: Scored) => {
    const key = JSON.stringify(s.sample.maze);
    return mazes.get(key) ?? mazes.set(key, kernel.generateMaze(s.sample.maze)).get(key)!;
  };
  const walks = (s: Scored, slack: number) => replaysWithDetour(kernel, mazeOf(s), s.sample.events, slack);
  let disagreements = 0;
  for (const c of CAPTURES) {
    for (const s of scored[c]) {
      if (s.sample.kind === 'human' && walks(s, 0) !== s.replays) disagreements++;
    }
  }
  const rates = DETOUR_SLACKS.map((slack) => {
    const replays = (s: Scored) => s.replays || walks(s, slack);
    const accepts = (s: Scored) => replays(s) && acceptedByScorer(s, threshold);
    const humans = Object.fromEntries(
      CAPTURES.map((c) => {
        const xs = scored[c].filter((s) => s.sample.kind === 'human');
        return [c, { replay: byUser(xs, replays), endToEnd: byUser(xs, accepts) }];
      }),
    ) as DetourRates['humans'];
    const bots = scored.native.filter((s) => s.sample.kind !== 'human' && s.sample.kind !== 'replay');
    const rate = (ok: (s: Scored) => boolean) => wilson(bots.filter(ok).length, bots.length);
    return { slack, humans, bots: { replay: rate(replays), endToEnd: rate(accepts) } };
  });
  return { disagreements, rates };
}

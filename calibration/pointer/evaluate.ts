import { packEvents } from '../../src/kernel/index.js';
import { MemoryStore } from '../../src/store/MemoryStore.js';
import { TraceFingerprints } from '../../src/core/scoring/TraceFingerprints.js';
import { scoreSubmission } from '../../src/core/scoring/scoreSubmission.js';
import type { ScoredFeature, ScoringTable } from '../../src/core/scoring/ScoringTable.js';
import { trippedGate } from '../../src/core/scoring/scoreFeatures.js';
import type { ReasonCode } from '../../src/core/scoring/reasons/reasonCodes.js';
import { composeTraces, isHeldOut, loadSegments, type HumanTrace } from '../people/humans.js';
import { CELL } from '../people/mazePath.js';
import { Rng } from '../random.js';
import type { BotFamily } from '../bots/families.js';
import type { Laying } from '../people/layings/laying.js';
import { CAPTURES, botSamples, humanSamples, replaySamples, type CalibrationKernel, type Capture, type Sample } from '../samples.js';
import { macroRate, wilson, type Rate } from '../stats.js';

export interface Split {
  calibration: HumanTrace[];
  heldOut: HumanTrace[];
}

export function splitTraces(file: string): Split {
  const traces = composeTraces(loadSegments(file));
  return {
    calibration: traces.filter((t) => !isHeldOut(t.source, t.user)),
    heldOut: traces.filter((t) => isHeldOut(t.source, t.user)),
  };
}

/** Every `step`-th trace, so a quick run keeps each user. */
export const every = <T>(xs: readonly T[], step: number) => xs.filter((_, i) => i % step === 0);

export interface Dataset {
  /** Each human trace, on one maze, by capture (`humans.native[i]` and `humans.throttle33[i]` are one movement). */
  humans: Record<Capture, Sample[]>;
  bots: Sample[];
  replays: Sample[];
}

export async function buildDataset(
  kernel: CalibrationKernel,
  traces: readonly HumanTrace[],
  seed: number,
  botsPerFamily: number,
  replaySources: number,
  replayCopies: number,
  families?: readonly BotFamily[],
  laying?: Laying,
): Promise<Dataset> {
  const rng = new Rng(seed);
  const pairs = traces.map((t) => humanSamples(kernel, rng, t, laying));
  const humans = { native: pairs.map((p) => p.native), throttle33: pairs.map((p) => p.throttle33) };
  const bots = await botSamples(kernel, rng, botsPerFamily, families);
  const sources = every(traces, Math.max(1, Math.floor(traces.length / replaySources))).slice(0, replaySources);
  const replays = sources.flatMap((t, i) => replaySamples(kernel, rng, t, replayCopies, String(i)));
  return { humans, bots, replays };
}

/** Each trace laid on a maze of its own by `laying`, by capture (`[c][i]` are one movement). */
export function layPeople(
  kernel: CalibrationKernel,
  traces: readonly HumanTrace[],
  seed: number,
  laying: Laying,
): Record<Capture, Sample[]> {
  const rng = new Rng(seed);
  const pairs = traces.map((t) => humanSamples(kernel, rng, t, laying));
  return { native: pairs.map((p) => p.native), throttle33: pairs.map((p) => p.throttle33) };
}

/**
 * What calibration fits on: each trace with every recorded point and as the deployed widget's
 * 33 ms throttle captures it (people are weighted per user, so a trace counts once in all).
 */
export const fittingMix = (people: Record<Capture, Sample[]>): Sample[] => [...people.native, ...people.throttle33];

export interface Scored {
  sample: Sample;
  /** The scorer alone, every trace scored (one duplicate memory for the run). */
  score: number;
  duplicate: boolean;
  /** Path replay (kernel.md section 4) accepts the trace: /verify's check before scoring. */
  replays: boolean;
  /** What /verify scores: null when replay rejects the trace (invalid_path) before scoring. */
  served: number | null;
  /** Served below the threshold: the gate that refused it alone (if one did), and the reason codes /verify gives. */
  gate?: ScoredFeature | undefined;
  reasons: readonly ReasonCode[];
}

/**
 * Scores samples in order, twice, as a server would see them: by the scorer alone, and end to
 * end (path replay in verify mode, then the score), each with its own duplicate memory, since
 * a trace failing replay is never scored nor remembered.
 */
export async function scoreAll(
  kernel: CalibrationKernel,
  table: ScoringTable,
  samples: readonly Sample[],
  threshold: number,
): Promise<Scored[]> {
  const memory = () => new TraceFingerprints(new MemoryStore({ maxMarkers: 1, maxCounters: 1, maxLists: 1_000_000 }));
  const scorerMemory = memory();
  const serverMemory = memory();
  const scored: Scored[] = [];
  for (const sample of samples) {
    const events = packEvents(sample.events);
    const input = { maze: sample.maze, cellSize: CELL, events, rawEvents: sample.events, threshold };
    const r = await scoreSubmission({ kernel, table, fingerprints: scorerMemory }, input);
    const replays = kernel.replay(sample.maze, events, CELL, { kind: 'verify' }).valid;
    const onServer = replays ? await scoreSubmission({ kernel, table, fingerprints: serverMemory }, input) : undefined;
    const gate = onServer && trippedGate(onServer.model, { kernel: onServer.features });
    scored.push({
      sample,
      score: r.score,
      duplicate: r.duplicate,
      replays,
      served: onServer?.score ?? null,
      gate,
      reasons: onServer?.reasons ?? [],
    });
  }
  return scored;
}

export const acceptedByScorer = (s: Scored, threshold: number) => s.score >= threshold;
export const acceptedEndToEnd = (s: Scored, threshold: number) => s.served !== null && s.served >= threshold;

export interface HumanRates {
  /** Macro over users: the scorer alone. */
  scorer: Rate;
  /** Macro over users: traces /verify accepts (replay, then score). */
  endToEnd: Rate;
  /** Macro over users: traces path replay accepts. */
  replay: Rate;
  /** Macro over users with a replaying trace: the score's acceptance of their replaying traces. */
  scoreIfReplayed: Rate;
  /** Traces scored 0 as a near-copy of an earlier one (scorer alone). */
  duplicates: number;
  /** Per study, over traces: replay and end-to-end acceptance. */
  sources: Record<string, { replay: Rate; endToEnd: Rate }>;
}

/** Share of `xs` that `ok` accepts, macro-averaged over users (bootstrap CIs). */
export function byUser(xs: readonly Scored[], ok: (s: Scored) => boolean): Rate {
  const perUser = new Map<string, boolean[]>();
  for (const s of xs) perUser.set(s.sample.user, [...(perUser.get(s.sample.user) ?? []), ok(s)]);
  return macroRate(perUser);
}

/** Acceptance of the human traces among `scored`, macro-averaged over users (bootstrap CIs). */
export function humanRates(scored: readonly Scored[], threshold: number): HumanRates {
  const humans = scored.filter((x) => x.sample.kind === 'human');
  const sources: HumanRates['sources'] = {};
  for (const source of new Set(humans.map((h) => h.sample.source ?? ''))) {
    const xs = humans.filter((h) => (h.sample.source ?? '') === source);
    sources[source] = {
      replay: wilson(xs.filter((x) => x.replays).length, xs.length),
      endToEnd: wilson(xs.filter((x) => acceptedEndToEnd(x, threshold)).length, xs.length),
    };
  }
  return {
    scorer: byUser(humans, (s) => acceptedByScorer(s, threshold)),
    endToEnd: byUser(humans, (s) => acceptedEndToEnd(s, threshold)),
    replay: byUser(humans, (s) => s.replays),
    scoreIfReplayed: byUser(
      humans.filter((s) => s.replays),
      (s) => acceptedEndToEnd(s, threshold),
    ),
    duplicates: humans.filter((x) => x.duplicate).length,
    sources,
  };
}

export interface FamilyRates {
  scorer: Rate;
  endToEnd: Rate;
  replay: Rate;
}

export interface BotReport {
  families: Record<string, FamilyRates>;
  /** Per family, per variant (timing and pixel ratio). */
  variants: Record<string, Record<string, FamilyRates>>;
  /** Replayed copies the scorer accepts after each source's first accepted copy. */
  replayRepeats: Rate;
}

function familyRates(xs: readonly Scored[], threshold: number): FamilyRates {
  const rate = (ok: (s: Scored) => boolean) => wilson(xs.filter(ok).length, xs.length);
  return {
    scorer: rate((s) => acceptedByScorer(s, threshold)),
    endToEnd: rate((s) => acceptedEndToEnd(s, threshold)),
    replay: rate((s) => s.replays),
  };
}

/** Acceptance of each bot family (and of replayed human traces) among `scored` (Wilson CIs). */
export function botRates(scored: readonly Scored[], threshold: number): BotReport {
  const families: BotReport['families'] = {};
  const variants: BotReport['variants'] = {};
  const bots = scored.filter((x) => x.sample.kind !== 'human');
  for (const f of new Set(bots.map((x) => x.sample.kind))) {
    const xs = bots.filter((x) => x.sample.kind === f);
    families[f] = familyRates(xs, threshold);
    const named = xs.filter((x) => x.sample.variant !== undefined);
    if (named.length === 0) continue;
    variants[f] = {};
    for (const v of new Set(named.map((x) => x.sample.variant!)))
      variants[f][v] = familyRates(
        named.filter((x) => x.sample.variant === v),
        threshold,
      );
  }
  const replays = scored.filter((x) => x.sample.kind === 'replay');
  const accepted = replays.filter((x) => acceptedByScorer(x, threshold));
  const firsts = new Set(accepted.map((x) => x.sample.user)).size;
  const sources = new Set(replays.map((x) => x.sample.user)).size;
  return { families, variants, replayRepeats: wilson(accepted.length - firsts, replays.length - sources) };
}

export interface Report extends BotReport {
  humans: Record<Capture, HumanRates>;
}

/**
 * The held-out measurement: each capture of the humans scored in a run of its own (one
 * movement captured twice is not a duplicate), the bots and replays with the native humans.
 */
export async function evaluate(kernel: CalibrationKernel, table: ScoringTable, data: Dataset, threshold: number) {
  const scored = {} as Record<Capture, Scored[]>;
  for (const c of CAPTURES) {
    scored[c] = await scoreAll(
      kernel,
      table,
      c === 'native' ? [...data.humans.native, ...data.replays, ...data.bots] : data.humans[c],
      threshold,
    );
  }
  const humans = Object.fromEntries(CAPTURES.map((c) => [c, humanRates(scored[c], threshold)])) as Record<Capture, HumanRates>;
  const report: Report = { humans, ...botRates(scored.native, threshold) };
  return { scored, report };
}

// Keyboard solves picked for a challenge by how the two keyboard models score them: a modelled
// person both accept, or a script only the people-first model accepts (what a tightened door
// holds back). Seeds go on from solve to solve: the same person or script laid on another maze
// is a near-copy (duplicate_trace).
import type { Challenge } from '../../src/core/challenge/issueChallenge.js';
import { TraceFingerprints } from '../../src/core/scoring/TraceFingerprints.js';
import { scoreSubmission } from '../../src/core/scoring/scoreSubmission.js';
import { STRICT_KEYBOARD_MODEL } from '../../src/core/verify/checkScore.js';
import type { RawEvent } from '../../src/kernel/types.js';
import { MemoryStore } from '../../src/store/MemoryStore.js';
import { mazeOf } from './humanTraces.js';
import { modelledPersonAtKeys, scriptAtKeys } from './keyboardSolves.js';
import { testKernel } from './server.js';

/** The strict model's score and the people-first (table) model's of `events` on `ch`. */
async function scores(ch: Challenge, events: RawEvent[]): Promise<{ strict: number; peopleFirst: number }> {
  const kernel = await testKernel();
  const r = await scoreSubmission(
    {
      kernel,
      keyboardModel: STRICT_KEYBOARD_MODEL,
      fingerprints: new TraceFingerprints(new MemoryStore({ maxMarkers: 10, maxCounters: 10 })),
    },
    { maze: mazeOf(ch), cellSize: ch.cell_size, events: kernel.packEvents(events), rawEvents: events },
  );
  return { strict: r.score, peopleFirst: r.tableScore };
}

let nextSeed = 1;

/** A modelled sighted keyboard person whom both models accept on `ch`. */
export async function personFor(ch: Challenge): Promise<RawEvent[]> {
  const maze = (await testKernel()).generateMaze(mazeOf(ch));
  for (let tries = 0; tries < 200; tries++) {
    const events = modelledPersonAtKeys(maze, nextSeed++);
    const s = await scores(ch, events);
    if (s.strict >= 0.5 && s.peopleFirst >= 0.5) return events;
  }
  throw new Error('no modelled person both models accept');
}

/** A script releasing its keys at random, gaps uniform, that the people-first model accepts and the strict one refuses. */
export async function scriptFor(ch: Challenge): Promise<RawEvent[]> {
  const maze = (await testKernel()).generateMaze(mazeOf(ch));
  for (let tries = 0; tries < 400; tries++) {
    const events = scriptAtKeys(maze, 'uniform', 'random', nextSeed++);
    const s = await scores(ch, events);
    if (s.strict < 0.5 && s.peopleFirst >= 0.5) return events;
  }
  throw new Error('no script that only the people-first model accepts');
}

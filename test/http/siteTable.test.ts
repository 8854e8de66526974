import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { botEvents } from '../../calibration/bots/scriptedMovers.js';
import { Rng } from '../../calibration/random.js';
import { EVENT_CAP } from '../../src/client/recording.js';
import { defaultConfig } from '../../src/config.js';
import type { Challenge } from '../../src/core/challenge/issueChallenge.js';
import { type ScoringTable, defaultTable } from '../../src/core/scoring/ScoringTable.js';
import { scoreSubmission } from '../../src/core/scoring/scoreSubmission.js';
import { TraceFingerprints } from '../../src/core/scoring/TraceFingerprints.js';
import { MemoryStore } from '../../src/store/MemoryStore.js';
import type { RawEvent } from '../../src/kernel/types.js';
import { buildSubmission, postJson, postVerify } from '../helpers/client.js';
import { mazeOf, replays } from '../helpers/humanTraces.js';
import { type TestServer, startTestServer, testKernel } from '../helpers/server.js';
import { secretOf } from '../helpers/sites.js';

const ORIGIN = 'https://shop.example';
/** Every pointer solve scores exactly this under the sites' own tables (no terms, bias its logit). */
const SITE_SCORE = 0.8;

/** A table like v3 whose pointer models weigh nothing: its score is SITE_SCORE whatever the motion. */
const flatTable = (threshold: number): ScoringTable => {
  const pointer = { bias: Math.log(SITE_SCORE / (1 - SITE_SCORE)), terms: [] };
  return { ...defaultTable, version: 'flat', threshold, types: { ...defaultTable.types, mouse: pointer, touch: pointer, pen: pointer } };
};

let dir: string;
let server: TestServer;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'ariadne-site-table-'));
  await writeFile(path.join(dir, 'lenient.json'), JSON.stringify(flatTable(0.75)));
  await writeFile(path.join(dir, 'strict.json'), JSON.stringify(flatTable(0.85)));
  const site = (table: string | undefined, mode: 'enforce' | 'shadow') => ({
    hostnames: ['shop.example'],
    secret: secretOf(table ?? mode),
    policy: { scoring: { mode, ...(table === undefined ? {} : { table_file: path.join(dir, table) }) } },
  });
  const sitesFile = {
    sites: { lenient: site('lenient.json', 'enforce'), strict: site('strict.json', 'enforce'), plain: site(undefined, 'shadow') },
  };
  server = await startTestServer({ scoring: defaultConfig().scoring }, { sitesFile });
});
afterAll(async () => {
  await server.close();
  await rm(dir, { recursive: true, force: true });
});

let sessions = 0;
/**
 * A solve of a fresh maze of the site by a WindMouse mover, and its /siteverify answer. A trace
 * accepted on one site is remembered for all, and WindMouse traces of other seeds on other mazes
 * are at times near-copies of it (scored 0 as duplicates on any table): such a solve is drawn again.
 */
async function solve(siteKey: string) {
  for (let tries = 1; ; tries++) {
    const solved = await solveOnce(siteKey);
    const duplicate =
      solved.verify.error_code === 'duplicate_trace' ||
      (solved.siteverify?.reasons as string[] | undefined)?.includes('duplicate_trace') === true;
    if (!duplicate || tries === 5) return solved;
  }
}

async function solveOnce(siteKey: string) {
  const ch = (await postJson(server.at('/challenge'), { site_key: siteKey }, { origin: ORIGIN })).body as Challenge;
  const sessionId = `site-table-${++sessions}`;
  const events = await windMouseFor(ch);
  const r = await postVerify(server, buildSubmission(server.kernel, ch, { sessionId, events }), { origin: ORIGIN });
  const redeemed =
    r.body.success === true
      ? (
          await postJson(
            server.at('/siteverify'),
            { token: r.body.token, session_id: sessionId },
            { authorization: `Bearer ${secretOf(siteKey === 'plain' ? 'shadow' : `${siteKey}.json`)}` },
          )
        ).body
      : undefined;
  return { ch, events, verify: r.body, siteverify: redeemed };
}

let seed = 0;
/**
 * A WindMouse trace that solves `ch`, of no more events than the widget records (EVENT_CAP): a
 * longer one can pass MAX_BODY_BYTES, which no widget sends, and is drawn again.
 */
async function windMouseFor(ch: Challenge): Promise<RawEvent[]> {
  const maze = server.kernel.generateMaze(mazeOf(ch));
  for (let tries = 0; tries < 20; tries++) {
    const events = botEvents('windmouse', new Rng(++seed), maze);
    if (events.length <= EVENT_CAP && (await replays(ch, events))) return events;
  }
  throw new Error('no WindMouse trace replays on this maze');
}

describe("policy.scoring.table_file: a site's own scoring table", () => {
  it("scores the site's solves with its table, at its table's threshold", async () => {
    const lenient = await solve('lenient');
    expect(lenient.verify.success).toBe(true);
    expect(lenient.siteverify).toMatchObject({ success: true, site_key: 'lenient' });
    expect(lenient.siteverify!.score).toBeCloseTo(SITE_SCORE, 12);
    // The same score under a table whose threshold is above it: refused.
    const strict = await solve('strict');
    expect(strict.verify).toMatchObject({ success: false, score: 0, error_code: 'behavioral_rejected' });
  });

  it('leaves the other sites on the default table', async () => {
    const plain = await solve('plain');
    const kernel = await testKernel();
    const offline = await scoreSubmission(
      { kernel, fingerprints: new TraceFingerprints(new MemoryStore({ maxMarkers: 10, maxCounters: 10 })) },
      { maze: mazeOf(plain.ch), cellSize: plain.ch.cell_size, events: kernel.packEvents(plain.events), rawEvents: plain.events },
    );
    expect(plain.siteverify, JSON.stringify(plain.verify)).toMatchObject({ success: true, site_key: 'plain', score: offline.score });
    expect(offline.score).not.toBeCloseTo(SITE_SCORE, 2);
  });
});

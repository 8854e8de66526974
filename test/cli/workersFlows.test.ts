/**
 * The protocol's multi-step flows on a real WORKERS=2 process, every step on a connection of its
 * own so the steps land on either thread: a probe armed on one completes on the other and its
 * token verifies; the probe's attempt cap and a registration session hold across threads; a
 * passkey registered through one thread asserts through the other with one signature counter.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Challenge } from '../../src/core/challenge/issueChallenge.js';
import { type AriadneNode, startNode, traceTimePassed } from '../helpers/ariadneNode.js';
import { buildSubmission, solution, traceEvents } from '../helpers/client.js';
import { testKernel } from '../helpers/server.js';
import { SoftAuthenticator } from '../helpers/softAuthenticator.js';
import { answersByThread, onNewConnection } from '../helpers/threadsOfNode.js';

const ORIGIN = 'https://shop.example.com';
const RP_ID = 'example.com';
const BASE = {
  SIGNING_SECRET: randomBytes(32).toString('base64url'),
  WORKERS: '2',
  POW_DIFFICULTY: '8',
  RATE_LIMIT_PER_MINUTE: '0',
  SCORING_MODE: 'off',
};

/** POSTs `body` on a connection of its own and parses the JSON answer. */
async function post(node: AriadneNode, route: string, body: unknown): Promise<any> {
  return JSON.parse((await onNewConnection(node.at(route), body, { origin: ORIGIN })).text);
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('WORKERS=2: probes across threads', () => {
  let node: AriadneNode;
  beforeAll(async () => {
    node = await startNode({ ...BASE, PROBE_PROBABILITY: '1' });
  });
  afterAll(async () => {
    expect(await node.stop()).toBe(0);
  });

  /** A challenge with its probe, and the arm request for a trace up to the probe's trigger cell. */
  async function probed(sessionId: string) {
    const ch: Challenge & Record<string, any> = await post(node, '/challenge', { site_key: 'site-p' });
    const probe = ch.probes![0]!;
    const cells = solution(await testKernel(), ch);
    const upTo = cells.findIndex((c) => c.x === probe.trigger_cell.x && c.y === probe.trigger_cell.y);
    expect(upTo).toBeGreaterThan(0);
    const arm = {
      challenge_id: ch.id,
      site_key: ch.site_key,
      session_id: sessionId,
      probe_id: probe.id,
      events: traceEvents(ch, cells.slice(0, upTo + 1), { up: false }),
    };
    const target = probe.cells.find((c) => c.color === probe.target_color)!;
    const wrong = probe.cells.find((c) => c.color !== probe.target_color)!;
    return { ch, arm, target: { x: target.x, y: target.y }, wrong: { x: wrong.x, y: wrong.y } };
  }

  it('16 probes, each armed, completed and verified on connections of their own: every one passes, both threads arm and complete', async () => {
    const kernel = await testKernel();
    const outcomes = await Promise.all(
      Array.from({ length: 16 }, async () => {
        const sessionId = randomUUID();
        const { ch, arm, target } = await probed(sessionId);
        // The prefix must fit in the time the server saw since the challenge was issued.
        await traceTimePassed(ch, arm);
        const armed = await post(node, '/probe/arm', arm);
        expect(armed.success).toBe(true);
        // Reactions under 150 ms are refused.
        await pause(200);
        const done = await post(node, '/probe/complete', {
          challenge_id: ch.id,
          session_id: sessionId,
          probe_ticket: armed.probe_ticket,
          tapped_cell: target,
        });
        expect(done.success).toBe(true);
        const again = await post(node, '/probe/complete', {
          challenge_id: ch.id,
          session_id: sessionId,
          probe_ticket: armed.probe_ticket,
          tapped_cell: target,
        });
        expect(again.error_code).toBe('ticket_already_used');
        const body = buildSubmission(kernel, ch, { sessionId, probeCompletionTokens: [done.completion_token] });
        await traceTimePassed(ch, body);
        return post(node, '/verify', body);
      }),
    );
    expect(outcomes).toEqual(Array(16).fill({ success: true, token: expect.any(String) }));
    for (const route of ['/probe/arm', '/probe/complete'])
      expect([...(await answersByThread(node, route)).keys()].sort()).toEqual(['1', '2']);
  });

  it('20 concurrent arms of one probe over both threads: exactly three succeed (5 probes)', async () => {
    for (let round = 0; round < 5; round++) {
      const { ch, arm } = await probed(randomUUID());
      await traceTimePassed(ch, arm);
      const answers = await Promise.all(Array.from({ length: 20 }, () => post(node, '/probe/arm', arm)));
      expect(answers.filter((a) => a.success === true)).toHaveLength(3);
      expect(answers.filter((a) => a.error_code === 'probe_attempts_exceeded')).toHaveLength(17);
    }
  });
});

describe('WORKERS=2: passkeys across threads', () => {
  let node: AriadneNode;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'ariadne-threads-'));
    node = await startNode({ ...BASE, DATA_DIR: dataDir, WEBAUTHN_MODE: 'preferred', WEBAUTHN_RP_ID: RP_ID, WEBAUTHN_ORIGIN: ORIGIN });
  });
  afterAll(async () => {
    expect(await node.stop()).toBe(0);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('a registration session is used once, however many connections race with it (5 sessions)', async () => {
    for (let round = 0; round < 5; round++) {
      const auth = new SoftAuthenticator('ES256', ORIGIN, RP_ID);
      const opened = await post(node, '/webauthn/register/options', { site_key: 'site-a', stable_id: `racer-${round}` });
      const response = auth.register(opened.options);
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => post(node, '/webauthn/register/verify', { session_id: opened.session_id, response })),
      );
      expect(answers.filter((a) => a.success === true)).toEqual([{ success: true, credential_id: auth.id }]);
    }
  });

  it('a passkey registered through one thread asserts through either, its signature counter one for both', async () => {
    const auth = new SoftAuthenticator('ES256', ORIGIN, RP_ID, true);
    const opened = await post(node, '/webauthn/register/options', { site_key: 'site-a', stable_id: 'alice' });
    expect(
      await post(node, '/webauthn/register/verify', { session_id: opened.session_id, response: auth.register(opened.options) }),
    ).toEqual({
      success: true,
      credential_id: auth.id,
    });
    const kernel = await testKernel();
    const assertOnce = async () => {
      const ch: Challenge & Record<string, any> = await post(node, '/challenge', {
        site_key: 'site-a',
        stable_id: 'alice',
        client_capabilities: { webauthn_available: true },
      });
      expect(ch.webauthn_request_options?.allowCredentials).toEqual([expect.objectContaining({ id: auth.id })]);
      // Events 1 ms apart: the trace fits the time since the challenge without waiting.
      const events = traceEvents(ch, solution(kernel, ch), { stepMs: 1 });
      const body = {
        ...buildSubmission(kernel, ch, { sessionId: randomUUID(), events }),
        stable_id: 'alice',
        webauthn: auth.assert(ch.webauthn_request_options!.challenge),
      };
      await traceTimePassed(ch, body);
      return post(node, '/verify', body);
    };
    // One after the other: each assertion's counter must be above the one stored by the last,
    // whichever thread checked it.
    for (let i = 0; i < 16; i++) expect(await assertOnce()).toEqual({ success: true, token: expect.any(String) });
    // A clone of the authenticator reporting an old counter fails on whichever thread takes it.
    auth.signCount = 10;
    expect(await assertOnce()).toMatchObject({ success: false, error_code: 'webauthn_failed' });
    expect([...(await answersByThread(node, '/verify')).keys()].sort()).toEqual(['1', '2']);
  });
});

/**
 * Builds valid submissions the way an honest browser client would: traces the maze along its
 * solution in canvas fractions, solves the proof of work with the kernel, and signs with an
 * ECDSA P-256 key in either text of kernel.md section 6.
 */
import { createHash, type KeyObject, sign } from 'node:crypto';
import type { Challenge } from '../../src/core/challenge/issueChallenge.js';
import { inferInputType } from '../../src/core/scoring/inferInputType.js';
import type { Cell, Kernel, RawEvent } from '../../src/kernel/types.js';
import type { TestServer } from './server.js';
import { ecKeyPair } from './ecKeyPair.js';

/** Canvas geometry of kernel.md section 3. */
const MARGIN = 20;
const STRIP = 24;
/** Time between two events, ms (the deployed widget throttles moves to >= 33 ms). */
export const EVENT_INTERVAL_MS = 30;

export interface Signer {
  /** Standard base64 of the public JWK's JSON, as `public_key` carries it. */
  publicKey: string;
  privateKey: KeyObject;
}

export function newSigner(): Signer {
  const { privateKey, jwk } = ecKeyPair();
  return { publicKey: Buffer.from(JSON.stringify(jwk)).toString('base64'), privateKey };
}

/** Raw r || s, standard base64. */
export function signText(signer: Signer, text: string): string {
  return sign('sha256', Buffer.from(text), { key: signer.privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64');
}

/** The canvas-fraction point of a position in cells (cell centres are x + 0.5). */
export function canvasPoint(ch: Challenge, cx: number, cy: number): { x: number; y: number } {
  const w = ch.maze_width * ch.cell_size;
  const h = ch.maze_height * ch.cell_size;
  return { x: (cx * ch.cell_size + MARGIN) / (w + 2 * MARGIN), y: (cy * ch.cell_size + MARGIN) / (h + 2 * MARGIN + STRIP) };
}

/** The solution path of the challenge's maze. */
export function solution(kernel: Kernel, ch: Challenge): Cell[] {
  return kernel.generateMaze({ seed: ch.maze_seed, width: ch.maze_width, height: ch.maze_height, difficulty: ch.maze_difficulty }).solution;
}

/**
 * Pointer events along cell centres of `cells`, EVENT_INTERVAL_MS apart (or `stepMs`: 1 ms
 * gives a trace that fits the time since its challenge on a server reading real time), with
 * moves at the fractions `along` of each step (default a third, two thirds and the next
 * centre; 0.55 is just past the edge into the next cell): a `down` on the first cell, `move`s,
 * and an `up` unless `up` is false (a probe is armed mid-trace).
 */
export function traceEvents(
  ch: Challenge,
  cells: readonly Cell[],
  opts: { up?: boolean; t0?: number; stepMs?: number; along?: readonly number[] } = {},
): RawEvent[] {
  const events: RawEvent[] = [];
  let t = opts.t0 ?? 0;
  const push = (type: string, cx: number, cy: number) => {
    events.push({ ...canvasPoint(ch, cx, cy), t, type, pointer_type: 'mouse' });
    t += opts.stepMs ?? EVENT_INTERVAL_MS;
  };
  const first = cells[0]!;
  push('down', first.x + 0.5, first.y + 0.5);
  for (let i = 1; i < cells.length; i++) {
    const a = cells[i - 1]!;
    const b = cells[i]!;
    for (const f of opts.along ?? [1 / 3, 2 / 3, 1]) push('move', a.x + 0.5 + (b.x - a.x) * f, a.y + 0.5 + (b.y - a.y) * f);
  }
  if (opts.up !== false) {
    const last = cells[cells.length - 1]!;
    push('up', last.x + 0.5, last.y + 0.5);
  }
  return events;
}

/**
 * A nonce meeting the difficulty the challenge announces for these events (keyboard solves need
 * `pow_difficulty_keyboard`; the input type is inferred as the server infers it), searched with
 * the kernel.
 */
export function solvePow(kernel: Kernel, ch: Challenge, events: readonly RawEvent[] = []): { nonce: number; hash: string } {
  const difficulty = inferInputType(events) === 'keyboard' ? ch.pow_difficulty_keyboard : ch.pow_difficulty;
  let from = 0;
  for (let batch = 0; batch < 10_000; batch++) {
    const r = kernel.solvePow(ch.pow_challenge, difficulty, from, 50_000);
    if (r.nonce !== null && r.hash !== null) return { nonce: r.nonce, hash: r.hash };
    from = r.next;
  }
  throw new Error('no nonce found');
}

/** kernel.md section 6 digest of the events, as the client computes it. */
export function eventsDigest(events: readonly RawEvent[]): string {
  const rows = events.map((e) => [e.t, e.x, e.y, e.type, e.pointer_type ?? null, e.coalesced_count ?? null]);
  return createHash('sha256').update(JSON.stringify(rows)).digest('hex');
}

/** Which signed text: the deployed widget's (with the events digest) or interface.md's. */
export type SignedText = 'digest' | 'plain';

export function signedText(ch: Challenge, events: readonly RawEvent[], form: SignedText): string {
  const base = `${ch.id}:${ch.site_key}:${ch.expires_at}`;
  return form === 'digest' ? `${base}:${eventsDigest(events)}` : base;
}

export interface SubmissionOptions {
  sessionId?: string;
  signer?: Signer;
  text?: SignedText;
  events?: RawEvent[];
  pow?: { nonce: number; hash: string };
  probeCompletionTokens?: string[];
}

/** A /verify body that passes every check for `ch` (override parts to break one). */
export function buildSubmission(kernel: Kernel, ch: Challenge, opts: SubmissionOptions = {}): Record<string, unknown> {
  const signer = opts.signer ?? newSigner();
  const events = opts.events ?? traceEvents(ch, solution(kernel, ch));
  const body: Record<string, unknown> = {
    challenge_id: ch.id,
    site_key: ch.site_key,
    session_id: opts.sessionId ?? 'session-1',
    events,
    pow_proof: opts.pow ?? solvePow(kernel, ch, events),
    public_key: signer.publicKey,
    signature: signText(signer, signedText(ch, events, opts.text ?? 'digest')),
    timestamp: Date.now(),
  };
  if (opts.probeCompletionTokens !== undefined) body.probe_completion_tokens = opts.probeCompletionTokens;
  return body;
}

/** Span of a trace's event times (latest minus earliest `t`), ms; 0 without events. */
export function traceSpanMs(events: readonly RawEvent[]): number {
  const ts = events.map((e) => e.t);
  return ts.length === 0 ? 0 : Math.max(...ts) - Math.min(...ts);
}

/**
 * POSTs a /verify body the way a person sends it: after the time its trace took. The test
 * server's clock moves forward by the trace's span first, since /verify refuses a trace longer
 * than the time since its challenge was issued.
 */
export function postVerify(
  server: Pick<TestServer, 'at' | 'advance'>,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: any }> {
  server.advance(Array.isArray(body.events) ? traceSpanMs(body.events as RawEvent[]) : 0);
  return postJson(server.at('/verify'), body, headers);
}

/** POSTs JSON and returns status, headers and parsed body. */
export async function postJson(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: any }> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text === '' ? {} : JSON.parse(text) };
}

import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { freePort } from '../../test/helpers/freePort.js';
import { BENCH_CHALLENGE_TTL_MS, type Child, PIN, spawnChild } from './processes.js';

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The routes a floor app can stand in for (as the bench names their loads). */
export type FloorRoute = 'challenge' | 'siteverify_valid' | 'verify';

/**
 * The floor of a route: the bare app (ceiling) plus only what any answer of that route must cost
 * in uWebSockets.js and node:crypto, with Ariadne's own HMAC code and nothing else of it:
 * - every request: the walk over its headers that refuses ambiguous framing, the four headers
 *   a POST route reads (origin, authorization, content-type, content-length), the body as text
 *   and JSON.parse, and the no-store header of every answer;
 * - /challenge: the peer address as a string (rate limits, adaptive proof of work) and the two
 *   HMACs of an id (its MAC and its site tag, see core/challenge/challengeIdBytes.ts);
 * - /siteverify: the token's HMAC over its signing input, and its claims decoded (base64url, JSON);
 * - /verify: the id's two HMACs, the proof of work's SHA-256, the events digest (the JSON text of
 *   the event rows and its SHA-256), the key's JWK import and the ECDSA check over the deployed
 *   widget's text, and a token's HMAC. It answers 400 when the signature does not verify, so a
 *   floor that skipped or botched the check would fail the bench's answer check.
 * Ariadne's own work (sites, schemas, stores, ids, answers, metrics; for /verify also the maze,
 * path replay, features and scoring) is what a route costs above its floor: a ratio to the bare
 * app cannot exceed the floor's.
 */
const FLOOR_APP = String.raw`
import uWS from 'uWebSockets.js';
import { createPublicKey, hash, verify } from 'node:crypto';
const { hmacKey } = await import(process.env.HMAC_MODULE);
const CHALLENGE_TTL_MS = Number(process.env.FLOOR_CHALLENGE_TTL_MS);
const route = process.env.FLOOR_ROUTE;
const key = hmacKey(Buffer.alloc(32, 9));
const head = '{"success":true,"pad":"';
const answer = Buffer.from(head + 'x'.repeat(Math.max(0, Number(process.env.FLOOR_SIZE) - head.length - 2)) + '"}');
const idBody = Buffer.alloc(11, 3);
const ZERO = new Uint8Array(1);
const POLICY_DIGEST = 'x'.repeat(43);

/** The route's own work on the parsed body: something derived from it, so none of it is skipped. */
function work(body, address) {
  if (route === 'verify') return verifyWork(body);
  if (route === 'challenge') {
    return key.digest(idBody, 'hex').length + key.digest([idBody, ZERO, body.site_key, ZERO, POLICY_DIGEST], 'hex').length + address.length;
  }
  const token = body.token;
  const dot1 = token.indexOf('.');
  const dot2 = token.lastIndexOf('.');
  const mac = key.digest(token.slice(0, dot2), 'base64url');
  const claims = JSON.parse(Buffer.from(token.slice(dot1 + 1, dot2), 'base64url').toString('utf8'));
  return mac.length + Object.keys(claims).length;
}

/** /verify's required steps; 0 when the signature does not verify over the widget's text. */
function verifyWork(body) {
  const id = Buffer.from(body.challenge_id.replaceAll('-', ''), 'hex');
  const mac = key.digest(id.subarray(0, 11), 'hex');
  const tag = key.digest([id.subarray(0, 11), ZERO, body.site_key, ZERO, POLICY_DIGEST], 'hex');
  const pow = hash('sha256', mac.slice(6, 38) + String(body.pow_proof.nonce), 'hex');
  const events = body.events;
  const rows = new Array(events.length);
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    rows[i] = [e.t, e.x, e.y, e.type, e.pointer_type ?? null, e.coalesced_count ?? null];
  }
  const digest = hash('sha256', JSON.stringify(rows), 'hex');
  const expiresAt = (id.readUIntBE(0, 6) % 2 ** 42) + CHALLENGE_TTL_MS;
  const jwk = JSON.parse(Buffer.from(body.public_key, 'base64').toString('utf8'));
  const publicKey = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y }, format: 'jwk' });
  const text = Buffer.from(body.challenge_id + ':' + body.site_key + ':' + expiresAt + ':' + digest);
  if (!verify('sha256', text, { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(body.signature, 'base64'))) return 0;
  const claims = Buffer.from(JSON.stringify({ cid: body.challenge_id, sid: body.session_id, site: body.site_key, score: 1, exp: expiresAt })).toString('base64url');
  return key.digest(claims, 'base64url').length + tag.length + pow.length;
}

const app = uWS.App();
app.post('/' + route, (res, req) => {
  let lengths = 0, encodings = 0, close = false;
  req.forEach((name, value) => {
    if (name === 'content-length') lengths++;
    else if (name === 'transfer-encoding') encodings++;
    else if (name === 'connection' && /close/i.test(value)) close = true;
  });
  const headers = req.getHeader('origin').length + req.getHeader('authorization').length + req.getHeader('content-type').length + req.getHeader('content-length').length;
  const address = route === 'challenge' ? Buffer.from(res.getRemoteAddressAsText()).toString() : '';
  let aborted = false;
  res.onAborted(() => { aborted = true; });
  let chunks;
  res.onData((chunk, isLast) => {
    if (!isLast) return void (chunks ??= []).push(Buffer.from(chunk.slice(0)));
    const bytes = chunks === undefined ? Buffer.from(chunk) : Buffer.concat([...chunks, Buffer.from(chunk)]);
    const worked = work(JSON.parse(bytes.toString('utf8')), address);
    const done = worked > 0 ? worked + headers + lengths + encodings + (close ? 1 : 0) : 0;
    if (aborted) return;
    res.cork(() => {
      if (!(done > 0)) res.writeStatus('400 Bad Request');
      res.writeHeader('content-type', 'application/json').writeHeader('cache-control', 'no-store').end(answer);
    });
  });
});
app.get('/healthz', (res) => res.end('{}'));
app.any('/*', (res) => res.writeStatus('404 Not Found').end());
app.listen('127.0.0.1', Number(process.env.PORT), (t) => { if (!t) process.exit(1); });
`;

/** The floor app of `route`, answering `size` bytes like the bare app, pinned where the server runs. */
export async function startFloorApp(route: FloorRoute, size: number): Promise<Child> {
  const port = await freePort();
  return spawnChild(
    [...PIN.server, 'node', '--input-type=module', '-e', FLOOR_APP],
    {
      PORT: String(port),
      FLOOR_ROUTE: route,
      FLOOR_SIZE: String(size),
      FLOOR_CHALLENGE_TTL_MS: String(BENCH_CHALLENGE_TTL_MS),
      HMAC_MODULE: pathToFileURL(join(repoRoot, 'dist', 'core', 'token', 'HmacKey.js')).href,
    },
    '/healthz',
  );
}

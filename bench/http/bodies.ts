/** The request bodies of the HTTP bench: valid and forged /siteverify tokens, valid /verify submissions. */
import type { Challenge } from '../../src/core/challenge/issueChallenge.js';
import { mintChallengeId } from '../../src/core/challenge/mintChallengeId.js';
import { issueSessionToken } from '../../src/core/redeem/issueSessionToken.js';
import { keyRing } from '../../src/core/token/keys.js';
import { loadKernel, type RawEvent } from '../../src/kernel/index.js';

/** The bench server's signing secret: fixed so the run can mint valid session tokens itself. */
export const SECRET = 'bench-signing-secret-0123456789abcdef-0123456789';
export const SITE_KEY = 'bench-site';

export async function postJson(url: string, body: unknown): Promise<{ status: number; text: string }> {
  const r = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: r.status, text: await r.text() };
}

/**
 * /siteverify bodies with session tokens signed by `secret`: the server's (valid, each redeemed
 * once) or another one (forged: the right shape, a full MAC check each, then invalid_token).
 */
const ID_KEY = Buffer.alloc(32, 7);

export function siteverifyBodies(n: number, now: number, secret: string): string[] {
  const ring = keyRing(secret, []);
  return Array.from({ length: n }, (_, i) =>
    JSON.stringify({
      token: issueSessionToken(ring, {
        // Well formed and dated now: redemption reads the challenge's creation time from its id.
        challengeId: mintChallengeId(ID_KEY, { siteKey: SITE_KEY, policy: '', createdAt: now, powDifficulty: 0 }).id,
        sessionId: `bench-session-${i}`,
        siteKey: SITE_KEY,
        score: 1,
        inputType: 'mouse',
        method: 'pointer',
        hostname: 'bench.example',
        ip: '127.0.0.1',
        now,
      }),
      session_id: `bench-session-${i}`,
    }),
  );
}

/**
 * Valid /verify bodies, each for its own fresh challenge and signed by its own key (as every
 * solve brings its own), built by the test client the way the widget does,
 * signing the deployed widget's text (`digest`) or interface.md's (`plain`). Returns once the time each trace spans has passed since its challenge was issued (the server
 * refuses a trace longer than that).
 */
export async function verifyBodies(url: string, n: number, text: 'digest' | 'plain' = 'digest'): Promise<string[]> {
  const client = await import('../../test/helpers/client.js');
  const kernel = await loadKernel();
  const bodies: string[] = [];
  let ready = 0;
  const batch = 64;
  for (let i = 0; i < n; i += batch) {
    const challenges = await Promise.all(
      Array.from({ length: Math.min(batch, n - i) }, async () => {
        const c = await postJson(`${url}/challenge`, { site_key: SITE_KEY });
        if (c.status !== 200) throw new Error(`/challenge answered ${c.status}: ${c.text}`);
        return JSON.parse(c.text) as Challenge;
      }),
    );
    for (const [j, ch] of challenges.entries()) {
      const body = client.buildSubmission(kernel, ch, { sessionId: `bench-${i + j}`, signer: client.newSigner(), text });
      ready = Math.max(ready, ch.created_at + client.traceSpanMs(body.events as RawEvent[]));
      bodies.push(JSON.stringify(body));
    }
  }
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, ready - Date.now())));
  return bodies;
}

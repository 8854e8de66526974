import type { ClientInfo } from '../challenge/issueChallenge.js';
import type { CoreContext } from '../context.js';
import { hostnameOf } from '../sites/Site.js';
import type { SolveMethod } from '../token/solveMethod.js';
import { issueSessionToken } from './issueSessionToken.js';

/** The doors without a maze: a token's `method` names the door, which the site weighs. */
export type DoorMethod = Extract<SolveMethod, 'passkey' | 'privacy_pass'>;

/**
 * The session token a door without a maze earns for `challenge` (spent already): score 1 and no
 * input type (nothing was traced), `method` the door, bound to the session, the client's
 * hostname and address as /verify's tokens are.
 */
export function issueDoorToken(
  ctx: Pick<CoreContext, 'ring' | 'now'>,
  method: DoorMethod,
  challenge: { challengeId: string; sessionId: string; siteKey: string },
  client: ClientInfo,
): string {
  return issueSessionToken(ctx.ring, {
    ...challenge,
    score: 1,
    method,
    hostname: hostnameOf(client.origin),
    ip: client.address,
    now: ctx.now(),
  });
}

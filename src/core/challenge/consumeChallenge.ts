import type { Store } from '../../store/Store.js';
import { type Failure, failure } from '../errors.js';
import type { AuthenticChallenge } from './authenticateChallengeId.js';

/**
 * Spends `challenge` once over every node, for as long as any solve of it would be accepted (a
 * keyboard one included), whichever way it is answered (a maze, a passkey, a Privacy Pass token):
 * undefined for the one use; challenge_not_found when it was spent before; store_unavailable when
 * the store could not record it (fail closed).
 */
export async function consumeChallenge(
  store: Store,
  challenge: Pick<AuthenticChallenge, 'id' | 'createdAt' | 'spentUntil'>,
): Promise<Failure | undefined> {
  const consumed = await store.consume(`challenge:${challenge.id}`, { issuedAt: challenge.createdAt, expiresAt: challenge.spentUntil });
  if (consumed === 'full') return failure('store_unavailable');
  return consumed === 'fresh' ? undefined : failure('challenge_not_found', 'challenge already used');
}

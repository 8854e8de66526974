import type { Store } from '../../store/Store.js';
import type { KeyRing } from '../token/keys.js';
import { redeemForCaller, siteverifyFailure } from './redeemForCaller.js';
import type { SiteverifyInput, SiteverifyResult } from './SiteverifyResult.js';
import type { SiteverifyCaller } from './siteverifyCaller.js';

/**
 * Redeems a session token for a site's backend. A missing or empty `token` or `session_id`
 * is answered before any verification; then see redeemForCaller.
 */
export async function siteverify(
  deps: { ring: KeyRing; store: Store; now?: () => number },
  input: SiteverifyInput,
  caller: SiteverifyCaller = { kind: 'operator' },
): Promise<SiteverifyResult> {
  const { token, session_id: sessionId } = input;
  if (typeof token !== 'string' || token === '' || typeof sessionId !== 'string' || sessionId === '') {
    return siteverifyFailure('missing_input');
  }
  return redeemForCaller(deps, token, sessionId, input, caller);
}

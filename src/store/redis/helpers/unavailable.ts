import { StoreUnavailableError } from '../../Store.js';

/** Rethrows any failure of a Redis call as StoreUnavailableError: the request fails closed (503). */
export function unavailable(e: unknown): never {
  if (e instanceof StoreUnavailableError) throw e;
  throw new StoreUnavailableError(`redis: ${e instanceof Error ? e.message : String(e)}`, { cause: e });
}

import type { StoreHealth } from '../Store.js';

/** A registered passkey, scoped to the (site_key, stable_id) that registered it. */
export interface StoredCredential {
  /** Credential id, base64url (as the browser reports it). */
  id: string;
  siteKey: string;
  stableId: string;
  /** COSE public key, base64url. */
  publicKey: string;
  /** COSE algorithm of the key (-7 ES256, -8 EdDSA, -257 RS256). */
  alg: number;
  /** Last signature counter seen; 0 for authenticators without counters. */
  counter: number;
  transports: string[];
  /** Registration time, epoch ms. */
  createdAt: number;
}

/**
 * - `added`: stored durably.
 * - `duplicate`: that credential id is registered already (under any user).
 * - `limit`: the (site_key, stable_id) holds its maximum of credentials.
 */
export type AddCredentialResult = 'added' | 'duplicate' | 'limit';

/**
 * Long-lived passkey storage. Every method is atomic with respect to concurrent callers; a
 * promise that resolves means the change is durable (it survives a crash right after).
 */
export interface CredentialStore {
  /** Stores `credential` unless its id exists or its user already holds `maxPerUser`. */
  add(credential: StoredCredential, maxPerUser: number): Promise<AddCredentialResult>;
  /** The credentials of one (site_key, stable_id), oldest first. */
  listFor(siteKey: string, stableId: string): Promise<StoredCredential[]>;
  get(id: string): Promise<StoredCredential | undefined>;
  /**
   * Compare-and-set: moves the stored counter to `newCounter` only when it is strictly greater,
   * and says whether it did. A counter never moves back.
   */
  advanceCounter(id: string, newCounter: number): Promise<boolean>;
  /** Whether the store answers now (for /healthz and /readyz); absent where it always does (a local file). Never rejects. */
  health?(): Promise<StoreHealth>;
  close(): Promise<void>;
}

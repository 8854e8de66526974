import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Kernel } from '../kernel/types.js';
import type { Store } from '../store/Store.js';
import type { CredentialStore } from '../store/credentials/CredentialStore.js';
import type { SiteRegistry } from './sites/SiteRegistry.js';
import type { SignatureVerifier } from './verify/SignatureVerifier.js';
import type { VerifyStageObserver } from './verify/VerifyStageObserver.js';
import type { TraceFingerprints } from './scoring/TraceFingerprints.js';
import type { TraceSampler } from './traffic/TraceSampler.js';
import type { TrafficCounters } from './traffic/TrafficCounters.js';
import type { KeyRing } from './token/keys.js';
import type { KeyboardBudget } from './keyboard/KeyboardBudget.js';
import type { WebAuthnConfig } from './webauthn/WebAuthnConfig.js';

/**
 * Passkey settings and the durable credential store; absent when passkeys are off everywhere.
 * Each site's own mode and relying party come from its policy (sites/sitePasskeys.ts).
 */
export interface Passkeys {
  config: WebAuthnConfig;
  credentials: CredentialStore;
}

/** Everything the protocol functions need, built once at start-up. */
export interface CoreContext {
  config: Config;
  /** The sites served and their policies; swapped whole on reload. */
  sites: SiteRegistry;
  kernel: Kernel;
  store: Store;
  /** Where /verify's ECDSA checks run (signatureVerifierFor). */
  signatures: SignatureVerifier;
  /** Signing keys of tokens, tickets and completion tokens. */
  ring: KeyRing;
  /** Challenge-id keys, current first (see challengeKeys.ts). */
  challengeKeys: readonly Buffer[];
  passkeys: Passkeys | undefined;
  /** Recently accepted traces of this server, for duplicate detection. */
  fingerprints: TraceFingerprints;
  log: Logger;
  /** Called with the proof-of-work difficulty of every challenge issued (metrics). */
  onPowIssued?: ((difficulty: number) => void) | undefined;
  /** The dashboard's counters (DASHBOARD_TOKEN set), else undefined: nothing counted. */
  traffic?: TrafficCounters | undefined;
  /** The sampler of /verify traces (TRACE_SAMPLE_RATE > 0), else undefined. */
  traces?: TraceSampler | undefined;
  /** The keyboard budget of every site (core/keyboard); absent: every door is people first unless pinned. */
  keyboardBudget?: KeyboardBudget | undefined;
  /** Clock in epoch milliseconds; injectable for tests. */
  now: () => number;
  /** Told as each stage of a /verify ends; absent when serving (the bench's stage account sets it). */
  verifyStages?: VerifyStageObserver | undefined;
}

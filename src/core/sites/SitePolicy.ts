import { createHash } from 'node:crypto';
import type { Config } from '../../config.js';
import type { KeyboardDoorPolicy } from '../keyboard/KeyboardDoorPolicy.js';
import type { PrivacyPassIssuer } from '../privacyPass/PrivacyPassIssuer.js';
import type { ScoringConfig } from '../scoring/parseScoringConfig.js';
import type { WebAuthnConfig } from '../webauthn/WebAuthnConfig.js';

/** Most bits adaptive proof of work adds above a policy's difficulty when no maximum is given. */
export const DEFAULT_POW_HEADROOM = 4;
/** Hardest proof of work a policy may ask for (leading zero bits). */
export const MAX_POW_DIFFICULTY = 32;

/** Passes without a maze per passkey and hour when a site opens the passkey door without a rate. */
export const DEFAULT_PASSKEY_DOOR_PER_HOUR = 6;
/** Highest per-passkey hourly rate a site may set. */
export const MAX_PASSKEY_DOOR_PER_HOUR = 120;

/** How a site's challenges are made and judged. Plain data: it crosses threads and reloads. */
export interface SitePolicy {
  pow: {
    /** Leading zero bits asked of a quiet client; the floor. */
    difficulty: number;
    /** Ceiling of adaptive proof of work; equal to `difficulty` turns adaptation off. */
    maxDifficulty: number;
    /** Challenges a client binding may take per minute before its difficulty rises. */
    freePerMinute: number;
  };
  maze: { width: number; height: number; difficulty: number };
  /** Share of challenges that carry a colour-tap probe, 0–1. */
  probeProbability: number;
  /** Passkey mode with its relying party (mode `off`: never asked for). */
  webauthn: WebAuthnConfig;
  scoring: ScoringConfig;
  /** The keyboard door's mode and budget (core/keyboard/KeyboardDoorPolicy.ts). */
  keyboard: KeyboardDoorPolicy;
  /** /siteverify with a `remoteip` other than the solving address: `flag` reports it, `reject` fails. */
  remoteip: 'flag' | 'reject';
  /**
   * The Privacy Pass issuers the site trusts (docs/doors.md); absent when none (the door is
   * closed), so the digest of a policy without them is unchanged.
   */
  privacyPassIssuers?: readonly PrivacyPassIssuer[];
  /**
   * The passkey door (POST /passkey, docs/doors.md): a returning passkey passes without a maze,
   * at most `perHour` times per credential and hour. Absent: closed (the default).
   */
  passkeyDoor?: { perHour: number };
}

/** The one policy of a server without a sites file, from its environment. */
export function defaultPolicy(config: Config): SitePolicy {
  return {
    pow: {
      difficulty: config.powDifficulty,
      maxDifficulty: config.powMaxDifficulty ?? Math.min(MAX_POW_DIFFICULTY, config.powDifficulty + DEFAULT_POW_HEADROOM),
      freePerMinute: config.powFreePerMinute,
    },
    maze: { width: config.mazeWidth, height: config.mazeHeight, difficulty: config.mazeDifficulty },
    probeProbability: config.probeProbability,
    webauthn: config.webauthn,
    scoring: config.scoring,
    keyboard: config.keyboardDoor,
    remoteip: 'flag',
    ...(config.privacyPassIssuers.length > 0 ? { privacyPassIssuers: config.privacyPassIssuers } : {}),
  };
}

/**
 * SHA-256 (hex) of the policy's canonical JSON (keys sorted at every level). Challenge ids bind
 * it (see challenge/challengeIdBytes.ts), so a challenge is only ever judged under the policy it
 * was issued with; every node and thread reading the same policy computes the same digest.
 */
export function policyDigest(policy: SitePolicy): string {
  return createHash('sha256').update(canonicalJson(policy)).digest('hex');
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

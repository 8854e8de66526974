/**
 * Server configuration, read once from environment variables. Every variable is checked; a bad
 * value stops start-up with a message naming the variable.
 */
import { randomBytes } from 'node:crypto';
import { availableParallelism } from 'node:os';
import type { PrivacyPassIssuer } from './core/privacyPass/PrivacyPassIssuer.js';
import { parsePrivacyPassIssuers } from './core/privacyPass/parsePrivacyPassIssuers.js';
import { type ScoringConfig, parseScoringConfig } from './core/scoring/parseScoringConfig.js';
import type { WebAuthnConfig } from './core/webauthn/WebAuthnConfig.js';
import { parseWebAuthnConfig } from './core/webauthn/parseWebAuthnConfig.js';
import type { KeyboardDoorPolicy } from './core/keyboard/KeyboardDoorPolicy.js';
import { parseKeyboardDoorPolicy } from './core/keyboard/parseKeyboardDoorPolicy.js';
import { MAX_MAZE_SIDE, MIN_MAZE_SIDE } from './kernel/types.js';
import { type StoreConfig, parseStoreConfig } from './store/parseStoreConfig.js';

export interface SigningKeyConfig {
  kid: string;
  value: string;
}

export interface Config {
  port: number;
  host: string;
  /**
   * WORKERS: threads serving HTTP on the port, each with its own kernel and signature worker,
   * sharing one store (default: the cores available; 1 serves on the main thread).
   */
  workers: number;
  /** Current signing secret: signs new tokens and challenge ids. */
  signingSecret: string;
  /** Older (or extra) keys that still verify, for rotation. */
  signingKeys: SigningKeyConfig[];
  /** Bearer token required on /siteverify when set. */
  siteverifyAuthToken: string | undefined;
  powDifficulty: number;
  /** Extra leading zero bits a keyboard solve needs (each doubles the work): POW_KEYBOARD_EXTRA_BITS. */
  powKeyboardExtraBits: number;
  /** Extra leading zero bits a keyboard solve needs on top of those during a keyboard surge: POW_KEYBOARD_SURGE_EXTRA_BITS. */
  powKeyboardSurgeExtraBits: number;
  /** KEYBOARD_DOOR and the keyboard budget's thresholds (KEYBOARD_*): the default of every site (core/keyboard). */
  keyboardDoor: KeyboardDoorPolicy;
  /** The keyboard budget's minute, ms (KEYBOARD_BUDGET_MINUTE_MS): 60000; shorter only to compress time in a bench or test. */
  keyboardBudgetMinuteMs: number;
  /** Ceiling of adaptive proof of work; undefined: powDifficulty + 4 (at most 32). */
  powMaxDifficulty?: number | undefined;
  /** Challenges a client may take per minute before its proof of work grows harder. */
  powFreePerMinute: number;
  mazeWidth: number;
  mazeHeight: number;
  mazeDifficulty: number;
  cellSize: number;
  challengeTtlMs: number;
  /** How long a challenge is accepted for a keyboard solve (at least challengeTtlMs: see core/challenge/challengeLife.ts). */
  keyboardChallengeTtlMs: number;
  probeProbability: number;
  /** SCORING_MODE, SCORING_KEYBOARD_MODE, SCORING_TABLE and SCORE_THRESHOLD (default: the scoring table's calibrated threshold). */
  scoring: ScoringConfig;
  /** WEBAUTHN_MODE, WEBAUTHN_RP_ID, WEBAUTHN_ORIGIN, WEBAUTHN_RP_NAME. */
  webauthn: WebAuthnConfig;
  /** PRIVACY_PASS_ISSUERS: the Privacy Pass issuers every site trusts unless the sites file says otherwise (docs/doors.md). */
  privacyPassIssuers: PrivacyPassIssuer[];
  /** Where the durable data (passkey credentials) lives. */
  dataDir: string;
  /** STORE, CREDENTIALS, REDIS_* and SHARE_PORT. */
  store: StoreConfig;
  /** Number of trusted proxy hops in front of the server; 0 ignores X-Forwarded-For. */
  trustProxy: number;
  /** Allowed browser origins, or '*' for any. */
  corsOrigins: '*' | string[];
  /** Per binding and minute on /verify; /challenge and /probe/* get ten times as much. 0 = off. */
  rateLimitPerMinute: number;
  maxBodyBytes: number;
  maxEvents: number;
  /** Second mount point of every route ('' = root only). */
  apiPrefix: string;
  /** Least severe log level written (pino's names). */
  logLevel: LogLevel;
  /** SITES_FILE: the sites and their policies (src/core/sites); undefined: any site key, one policy. */
  sitesFile: string | undefined;
  /** Whether the documented test keys answer (TEST_KEYS; off by default when NODE_ENV=production). */
  testKeys: boolean;
  /** DASHBOARD_TOKEN: the operator dashboard's password; undefined: no dashboard, nothing collected for it. */
  dashboardToken: string | undefined;
  /** TRACE_SAMPLE_RATE, TRACE_MAX_COUNT and TRACE_MAX_BYTES (see core/traffic/TraceSampler.ts). */
  traces: TraceConfig;
}

/** Sampled /verify traces: the share kept, and the bounds of what is kept (oldest dropped first). */
export interface TraceConfig {
  /** In [0, 1]; 0 keeps nothing. */
  sampleRate: number;
  maxCount: number;
  maxBytes: number;
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export type ConfigResult =
  | { ok: true; config: Config; warnings: string[] }
  | { ok: false; error: string };

/** Defaults of every variable, as documented in docs/operating.md (Configuration). */
export const DEFAULTS = {
  PORT: 8787,
  HOST: '127.0.0.1',
  POW_DIFFICULTY: 18,
  POW_KEYBOARD_EXTRA_BITS: 3,
  POW_KEYBOARD_SURGE_EXTRA_BITS: 3,
  KEYBOARD_BUDGET_MINUTE_MS: 60_000,
  POW_FREE_PER_MINUTE: 10,
  MAZE_WIDTH: 8,
  MAZE_HEIGHT: 8,
  MAZE_DIFFICULTY: 0.3,
  CELL_SIZE: 40,
  CHALLENGE_TTL_MS: 120_000,
  KEYBOARD_CHALLENGE_TTL_MS: 600_000,
  PROBE_PROBABILITY: 0,
  TRUST_PROXY: 0,
  CORS_ORIGINS: '*',
  RATE_LIMIT_PER_MINUTE: 60,
  MAX_BODY_BYTES: 262_144,
  MAX_EVENTS: 20_000,
  API_PREFIX: '/api/captcha',
  DATA_DIR: './data',
  LOG_LEVEL: 'info',
  TRACE_SAMPLE_RATE: 0,
  TRACE_MAX_COUNT: 1_000,
  TRACE_MAX_BYTES: 16 * 1024 * 1024,
} as const;

/** Shortest DASHBOARD_TOKEN accepted: it is a password typed into a form, guessed online. */
export const MIN_DASHBOARD_TOKEN_LENGTH = 16;

/** Most WORKERS accepted: beyond the cores, threads only add memory and switching. */
export const MAX_WORKERS = 256;

/** Shortest accepted signing secret, in characters. */
export const MIN_SECRET_LENGTH = 32;

class ConfigError extends Error {}

function fail(name: string, message: string): never {
  throw new ConfigError(`${name}: ${message}`);
}

function text(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

function num(env: NodeJS.ProcessEnv, name: string, def: number, min: number, max: number, integer: boolean): number {
  const raw = text(env, name);
  if (raw === undefined) return def;
  const n = Number(raw);
  if (!Number.isFinite(n) || (integer && !Number.isInteger(n)) || n < min || n > max) {
    fail(name, `expected ${integer ? 'an integer' : 'a number'} between ${min} and ${max}, got ${JSON.stringify(raw)}`);
  }
  return n;
}

/** Runs a parser of another module; its Error (which names the variable) stops start-up. */
function parsed<T>(parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    throw new ConfigError(e instanceof Error ? e.message : String(e));
  }
}

function secret(name: string, value: string): string {
  if (value.length < MIN_SECRET_LENGTH) fail(name, `must be at least ${MIN_SECRET_LENGTH} characters`);
  return value;
}

function signingKeys(env: NodeJS.ProcessEnv): SigningKeyConfig[] {
  const raw = text(env, 'SIGNING_KEYS');
  if (raw === undefined) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    fail('SIGNING_KEYS', 'is not valid JSON (expected an array of {"kid": string, "value": string})');
  }
  if (!Array.isArray(parsed)) fail('SIGNING_KEYS', 'expected a JSON array of {"kid": string, "value": string}');
  const kids = new Set<string>();
  return parsed.map((k: unknown, i) => {
    const o = k as { kid?: unknown; value?: unknown } | null;
    if (o === null || typeof o !== 'object' || typeof o.kid !== 'string' || typeof o.value !== 'string') {
      fail('SIGNING_KEYS', `entry ${i} must be {"kid": string, "value": string}`);
    }
    if (!/^[A-Za-z0-9._-]{1,64}$/.test(o.kid)) fail('SIGNING_KEYS', `entry ${i}: kid must be 1-64 of [A-Za-z0-9._-]`);
    if (kids.has(o.kid)) fail('SIGNING_KEYS', `duplicate kid ${JSON.stringify(o.kid)}`);
    kids.add(o.kid);
    return { kid: o.kid, value: secret('SIGNING_KEYS', o.value) };
  });
}

function trustProxy(env: NodeJS.ProcessEnv): number {
  const raw = text(env, 'TRUST_PROXY')?.toLowerCase();
  if (raw === undefined || raw === 'false' || raw === 'off' || raw === 'no') return 0;
  if (raw === 'true' || raw === 'on' || raw === 'yes') return 1;
  return num(env, 'TRUST_PROXY', 0, 0, 16, true);
}

function corsOrigins(env: NodeJS.ProcessEnv): '*' | string[] {
  const raw = text(env, 'CORS_ORIGINS') ?? DEFAULTS.CORS_ORIGINS;
  if (raw === '*') return '*';
  return raw.split(',').map((o) => {
    const origin = o.trim();
    let parsed: URL | undefined;
    try {
      parsed = new URL(origin);
    } catch {
      parsed = undefined;
    }
    if (parsed === undefined || parsed.origin !== origin) {
      fail('CORS_ORIGINS', `${JSON.stringify(origin)} is not an origin like https://example.com (or use *)`);
    }
    return origin;
  });
}

function apiPrefix(env: NodeJS.ProcessEnv): string {
  const raw = env.API_PREFIX === undefined ? DEFAULTS.API_PREFIX : env.API_PREFIX.trim();
  if (raw === '' || raw === '/') return '';
  if (!/^(\/[A-Za-z0-9._~-]+)+$/.test(raw)) fail('API_PREFIX', `expected a path like /api/captcha, got ${JSON.stringify(raw)}`);
  return raw;
}

function onOff(env: NodeJS.ProcessEnv, name: string, def: boolean): boolean {
  const raw = text(env, name)?.toLowerCase();
  if (raw === undefined) return def;
  if (['on', 'true', 'yes', '1'].includes(raw)) return true;
  if (['off', 'false', 'no', '0'].includes(raw)) return false;
  fail(name, `expected on or off, got ${JSON.stringify(raw)}`);
}

function powMaxDifficulty(env: NodeJS.ProcessEnv, difficulty: number): number | undefined {
  if (text(env, 'POW_MAX_DIFFICULTY') === undefined) return undefined;
  const max = num(env, 'POW_MAX_DIFFICULTY', difficulty, 0, 32, true);
  if (max < difficulty) fail('POW_MAX_DIFFICULTY', `must not be below POW_DIFFICULTY (${difficulty}), got ${max}`);
  return max;
}

function dashboardToken(env: NodeJS.ProcessEnv): string | undefined {
  const token = text(env, 'DASHBOARD_TOKEN');
  if (token !== undefined && token.length < MIN_DASHBOARD_TOKEN_LENGTH) fail('DASHBOARD_TOKEN', `must be at least ${MIN_DASHBOARD_TOKEN_LENGTH} characters`);
  return token;
}

function traces(env: NodeJS.ProcessEnv): TraceConfig {
  return {
    sampleRate: num(env, 'TRACE_SAMPLE_RATE', DEFAULTS.TRACE_SAMPLE_RATE, 0, 1, false),
    maxCount: num(env, 'TRACE_MAX_COUNT', DEFAULTS.TRACE_MAX_COUNT, 1, 1_000_000, true),
    maxBytes: num(env, 'TRACE_MAX_BYTES', DEFAULTS.TRACE_MAX_BYTES, 65_536, 1024 * 1024 * 1024, true),
  };
}

function logLevel(env: NodeJS.ProcessEnv): LogLevel {
  const raw = env.LOG_LEVEL?.trim() || DEFAULTS.LOG_LEVEL;
  const level = LOG_LEVELS.find((l) => l === raw);
  if (level === undefined) fail('LOG_LEVEL', `expected one of ${LOG_LEVELS.join(', ')}, got ${JSON.stringify(raw)}`);
  return level;
}

/** Reads and checks the configuration. Never throws. */
export function loadConfig(env: NodeJS.ProcessEnv): ConfigResult {
  const warnings: string[] = [];
  try {
    const production = env.NODE_ENV === 'production';
    const given = text(env, 'SIGNING_SECRET');
    let signingSecret: string;
    if (given !== undefined) {
      signingSecret = secret('SIGNING_SECRET', given);
    } else if (production) {
      fail('SIGNING_SECRET', 'is required when NODE_ENV=production');
    } else {
      signingSecret = randomBytes(32).toString('base64url');
      warnings.push(
        'SIGNING_SECRET is not set: using a random secret for this process only. Tokens and challenges ' +
          'will not survive a restart and other nodes cannot verify them. Set SIGNING_SECRET in production.',
      );
    }
    const host = text(env, 'HOST') ?? DEFAULTS.HOST;
    const powDifficulty = num(env, 'POW_DIFFICULTY', DEFAULTS.POW_DIFFICULTY, 0, 32, true);
    const config: Config = {
      port: num(env, 'PORT', DEFAULTS.PORT, 0, 65535, true),
      host,
      workers: num(env, 'WORKERS', Math.min(availableParallelism(), MAX_WORKERS), 1, MAX_WORKERS, true),
      signingSecret,
      signingKeys: signingKeys(env),
      siteverifyAuthToken: text(env, 'SITEVERIFY_AUTH_TOKEN'),
      powDifficulty,
      powMaxDifficulty: powMaxDifficulty(env, powDifficulty),
      powFreePerMinute: num(env, 'POW_FREE_PER_MINUTE', DEFAULTS.POW_FREE_PER_MINUTE, 1, 1_000_000, true),
      powKeyboardExtraBits: num(env, 'POW_KEYBOARD_EXTRA_BITS', DEFAULTS.POW_KEYBOARD_EXTRA_BITS, 0, 8, true),
      powKeyboardSurgeExtraBits: num(env, 'POW_KEYBOARD_SURGE_EXTRA_BITS', DEFAULTS.POW_KEYBOARD_SURGE_EXTRA_BITS, 0, 8, true),
      keyboardDoor: parsed(() => parseKeyboardDoorPolicy(env)),
      keyboardBudgetMinuteMs: num(env, 'KEYBOARD_BUDGET_MINUTE_MS', DEFAULTS.KEYBOARD_BUDGET_MINUTE_MS, 1_000, 60_000, true),
      mazeWidth: num(env, 'MAZE_WIDTH', DEFAULTS.MAZE_WIDTH, MIN_MAZE_SIDE, MAX_MAZE_SIDE, true),
      mazeHeight: num(env, 'MAZE_HEIGHT', DEFAULTS.MAZE_HEIGHT, MIN_MAZE_SIDE, MAX_MAZE_SIDE, true),
      mazeDifficulty: num(env, 'MAZE_DIFFICULTY', DEFAULTS.MAZE_DIFFICULTY, 0, 1, false),
      cellSize: num(env, 'CELL_SIZE', DEFAULTS.CELL_SIZE, 8, 256, true),
      challengeTtlMs: num(env, 'CHALLENGE_TTL_MS', DEFAULTS.CHALLENGE_TTL_MS, 1_000, 3_600_000, true),
      keyboardChallengeTtlMs: num(env, 'KEYBOARD_CHALLENGE_TTL_MS', DEFAULTS.KEYBOARD_CHALLENGE_TTL_MS, 1_000, 3_600_000, true),
      probeProbability: num(env, 'PROBE_PROBABILITY', DEFAULTS.PROBE_PROBABILITY, 0, 1, false),
      scoring: parsed(() => parseScoringConfig(env)),
      webauthn: parsed(() => parseWebAuthnConfig(env)),
      privacyPassIssuers: parsed(() => parsePrivacyPassIssuers(env.PRIVACY_PASS_ISSUERS)),
      dataDir: env.DATA_DIR?.trim() || DEFAULTS.DATA_DIR,
      store: parsed(() => parseStoreConfig(env)),
      trustProxy: trustProxy(env),
      corsOrigins: corsOrigins(env),
      rateLimitPerMinute: num(env, 'RATE_LIMIT_PER_MINUTE', DEFAULTS.RATE_LIMIT_PER_MINUTE, 0, 10_000_000, true),
      maxBodyBytes: num(env, 'MAX_BODY_BYTES', DEFAULTS.MAX_BODY_BYTES, 1_024, 64 * 1024 * 1024, true),
      maxEvents: num(env, 'MAX_EVENTS', DEFAULTS.MAX_EVENTS, 16, 1_000_000, true),
      apiPrefix: apiPrefix(env),
      logLevel: logLevel(env),
      sitesFile: text(env, 'SITES_FILE'),
      testKeys: onOff(env, 'TEST_KEYS', !production),
      dashboardToken: dashboardToken(env),
      traces: traces(env),
    };
    if (production && config.siteverifyAuthToken === undefined && config.sitesFile === undefined) {
      warnings.push('SITEVERIFY_AUTH_TOKEN is not set: /siteverify answers anyone who can reach it.');
    }
    if (config.rateLimitPerMinute === 0) warnings.push('RATE_LIMIT_PER_MINUTE=0: rate limiting is off.');
    if (production && config.testKeys) warnings.push('TEST_KEYS=on with NODE_ENV=production: the test site keys and secrets answer.');
    if (config.scoring.mode === 'off') warnings.push('SCORING_MODE=off: /verify does not score how human the motion looks.');
    if (config.scoring.keyboardMode === 'off') warnings.push('SCORING_KEYBOARD_MODE=off: /verify does not score keyboard solves.');
    if (config.traces.sampleRate > 0 && config.dashboardToken === undefined) {
      warnings.push(
        `TRACE_SAMPLE_RATE=${config.traces.sampleRate} without DASHBOARD_TOKEN: traces are sampled and kept, but only the dashboard ` +
          'downloads them (GET /dashboard/traces.jsonl). Set DASHBOARD_TOKEN, or TRACE_SAMPLE_RATE=0 to keep none.',
      );
    }
    return { ok: true, config, warnings };
  } catch (e) {
    if (e instanceof ConfigError) return { ok: false, error: `Invalid configuration: ${e.message}` };
    throw e;
  }
}

/** The configuration with every default and a given secret: for tests and embedding. */
export function defaultConfig(overrides: Partial<Config> = {}): Config {
  const r = loadConfig({ SIGNING_SECRET: overrides.signingSecret ?? randomBytes(32).toString('base64url') });
  if (!r.ok) throw new Error(r.error);
  return { ...r.config, ...overrides };
}

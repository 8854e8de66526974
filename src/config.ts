/**
 * Server configuration, read once from environment variables. Every variable is checked; a bad
 * value stops start-up with a message naming the variable.
 *
 * The direction of the imports: the variables of one part (scoring, passkeys, the keyboard door,
 * Privacy Pass, the store) are parsed next to that part (its parse*Config / parse* file, which
 * imports nothing from here), and this file gathers them into Config. So a part's options are
 * documented where that part declares them, and no parser depends on the Config it feeds
 * (`npm run circular` would find the loop).
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
  /** PORT (NUMBER_VARIABLES); the bound one once claimed. */
  port: number;
  /** HOST: the address to listen on. */
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
  /** POW_DIFFICULTY (NUMBER_VARIABLES). */
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
  /** MAZE_WIDTH (NUMBER_VARIABLES): the default policy's maze, as the next three. */
  mazeWidth: number;
  /** MAZE_HEIGHT. */
  mazeHeight: number;
  /** MAZE_DIFFICULTY. */
  mazeDifficulty: number;
  /** CELL_SIZE. */
  cellSize: number;
  /** CHALLENGE_TTL_MS (NUMBER_VARIABLES). */
  challengeTtlMs: number;
  /** How long a challenge is accepted for a keyboard solve (at least challengeTtlMs: see core/challenge/challengeLife.ts). */
  keyboardChallengeTtlMs: number;
  /** PROBE_PROBABILITY (NUMBER_VARIABLES). */
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
  /** RATE_LIMIT_PER_MINUTE (NUMBER_VARIABLES). */
  rateLimitPerMinute: number;
  /** MAX_BODY_BYTES (NUMBER_VARIABLES). */
  maxBodyBytes: number;
  /** MAX_EVENTS (NUMBER_VARIABLES). */
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

export type ConfigResult = { ok: true; config: Config; warnings: string[] } | { ok: false; error: string };

/**
 * A numeric variable, declared once: what it sets, its default and the range accepted (a value
 * outside it stops start-up, naming the variable). The tables of docs/ are checked against these
 * (test/config.test.ts, "every numeric variable").
 */
export interface NumberVariable {
  doc: string;
  default: number;
  min: number;
  max: number;
  integer: boolean;
}

const integer = (doc: string, def: number, min: number, max: number): NumberVariable => ({ doc, default: def, min, max, integer: true });
const fraction = (doc: string, def: number): NumberVariable => ({ doc, default: def, min: 0, max: 1, integer: false });

/** Every numeric variable with a fixed default (WORKERS, TRUST_PROXY and POW_MAX_DIFFICULTY have their own rules, below). */
export const NUMBER_VARIABLES = {
  PORT: integer('Port to listen on; 0 picks a free one', 8787, 0, 65_535),
  POW_DIFFICULTY: integer('Leading zero bits of proof of work a quiet client is asked', 18, 0, 32),
  POW_FREE_PER_MINUTE: integer('Challenges a client may take per minute before its proof of work grows harder', 10, 1, 1_000_000),
  POW_KEYBOARD_EXTRA_BITS: integer('Extra leading zero bits a keyboard solve needs (each doubles the work)', 3, 0, 8),
  POW_KEYBOARD_SURGE_EXTRA_BITS: integer(
    'More leading zero bits still for a keyboard solve of a challenge issued in a keyboard surge',
    3,
    0,
    8,
  ),
  KEYBOARD_BUDGET_MINUTE_MS: integer(
    "The keyboard budget's minute, in ms; shorter only to compress time in a bench or a test (every keyboard rate is per such minute, and its hour is 60 of them)",
    60_000,
    1_000,
    60_000,
  ),
  MAZE_WIDTH: integer('Maze width in cells', 8, MIN_MAZE_SIDE, MAX_MAZE_SIDE),
  MAZE_HEIGHT: integer('Maze height in cells', 8, MIN_MAZE_SIDE, MAX_MAZE_SIDE),
  MAZE_DIFFICULTY: fraction('How much the maze branches (more as it grows; kernel.md)', 0.3),
  CELL_SIZE: integer("Cell size in px that Ariadne's widget draws", 40, 8, 256),
  CHALLENGE_TTL_MS: integer('How long a challenge is accepted, in ms', 120_000, 1_000, 3_600_000),
  KEYBOARD_CHALLENGE_TTL_MS: integer(
    'How long a challenge is accepted for a keyboard solve, in ms (at least CHALLENGE_TTL_MS)',
    600_000,
    1_000,
    3_600_000,
  ),
  PROBE_PROBABILITY: fraction('Share of challenges that carry a colour-tap probe', 0),
  RATE_LIMIT_PER_MINUTE: integer(
    'Requests per client address and minute on /verify, /passkey and /privacy-pass with a token (ten times as much on /challenge, /probe/* and passkey registration); 0 turns it off',
    60,
    0,
    10_000_000,
  ),
  MAX_BODY_BYTES: integer('Largest request body, in bytes', 262_144, 1_024, 64 * 1024 * 1024),
  MAX_EVENTS: integer('Most events a /verify submission may carry', 20_000, 16, 1_000_000),
  TRACE_SAMPLE_RATE: fraction('Share of /verify submissions kept as sampled traces', 0),
  TRACE_MAX_COUNT: integer('Most sampled traces kept (the oldest dropped first)', 1_000, 1, 1_000_000),
  TRACE_MAX_BYTES: integer('Most bytes of sampled traces kept (the oldest dropped first)', 16 * 1024 * 1024, 65_536, 1024 * 1024 * 1024),
} satisfies Record<string, NumberVariable>;

export type NumberVariableName = keyof typeof NUMBER_VARIABLES;

/** Defaults of the variables that are not numbers; docs/operating.md (Configuration) is checked against them (test/config.test.ts, "every variable Ariadne reads"). */
const TEXT_DEFAULTS = {
  HOST: '127.0.0.1',
  CORS_ORIGINS: '*',
  API_PREFIX: '/api/captcha',
  DATA_DIR: './data',
  LOG_LEVEL: 'info',
} as const;

/** Defaults of every variable with a fixed one: the numbers' (NUMBER_VARIABLES) and the others'. */
export const DEFAULTS = {
  ...(Object.fromEntries(Object.entries(NUMBER_VARIABLES).map(([name, v]) => [name, v.default])) as Record<NumberVariableName, number>),
  ...TEXT_DEFAULTS,
};

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

/** The value of a declared numeric variable (NUMBER_VARIABLES), its default when unset. */
function declared(env: NodeJS.ProcessEnv, name: NumberVariableName): number {
  const v: NumberVariable = NUMBER_VARIABLES[name];
  return num(env, name, v.default, v.min, v.max, v.integer);
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
  if (token !== undefined && token.length < MIN_DASHBOARD_TOKEN_LENGTH)
    fail('DASHBOARD_TOKEN', `must be at least ${MIN_DASHBOARD_TOKEN_LENGTH} characters`);
  return token;
}

function traces(env: NodeJS.ProcessEnv): TraceConfig {
  return {
    sampleRate: declared(env, 'TRACE_SAMPLE_RATE'),
    maxCount: declared(env, 'TRACE_MAX_COUNT'),
    maxBytes: declared(env, 'TRACE_MAX_BYTES'),
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
    const powDifficulty = declared(env, 'POW_DIFFICULTY');
    const config: Config = {
      port: declared(env, 'PORT'),
      host,
      workers: num(env, 'WORKERS', Math.min(availableParallelism(), MAX_WORKERS), 1, MAX_WORKERS, true),
      signingSecret,
      signingKeys: signingKeys(env),
      siteverifyAuthToken: text(env, 'SITEVERIFY_AUTH_TOKEN'),
      powDifficulty,
      powMaxDifficulty: powMaxDifficulty(env, powDifficulty),
      powFreePerMinute: declared(env, 'POW_FREE_PER_MINUTE'),
      powKeyboardExtraBits: declared(env, 'POW_KEYBOARD_EXTRA_BITS'),
      powKeyboardSurgeExtraBits: declared(env, 'POW_KEYBOARD_SURGE_EXTRA_BITS'),
      keyboardDoor: parsed(() => parseKeyboardDoorPolicy(env)),
      keyboardBudgetMinuteMs: declared(env, 'KEYBOARD_BUDGET_MINUTE_MS'),
      mazeWidth: declared(env, 'MAZE_WIDTH'),
      mazeHeight: declared(env, 'MAZE_HEIGHT'),
      mazeDifficulty: declared(env, 'MAZE_DIFFICULTY'),
      cellSize: declared(env, 'CELL_SIZE'),
      challengeTtlMs: declared(env, 'CHALLENGE_TTL_MS'),
      keyboardChallengeTtlMs: declared(env, 'KEYBOARD_CHALLENGE_TTL_MS'),
      probeProbability: declared(env, 'PROBE_PROBABILITY'),
      scoring: parsed(() => parseScoringConfig(env)),
      webauthn: parsed(() => parseWebAuthnConfig(env)),
      privacyPassIssuers: parsed(() => parsePrivacyPassIssuers(env.PRIVACY_PASS_ISSUERS)),
      dataDir: env.DATA_DIR?.trim() || DEFAULTS.DATA_DIR,
      store: parsed(() => parseStoreConfig(env)),
      trustProxy: trustProxy(env),
      corsOrigins: corsOrigins(env),
      rateLimitPerMinute: declared(env, 'RATE_LIMIT_PER_MINUTE'),
      maxBodyBytes: declared(env, 'MAX_BODY_BYTES'),
      maxEvents: declared(env, 'MAX_EVENTS'),
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

import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { DEFAULTS, MAX_WORKERS, MIN_DASHBOARD_TOKEN_LENGTH, NUMBER_VARIABLES, loadConfig } from '../src/config.js';
import { defaultTable, scoringTables } from '../src/core/scoring/ScoringTable.js';

const SECRET = 'x'.repeat(32);

describe('loadConfig', () => {
  it('applies every documented default', () => {
    const r = loadConfig({ SIGNING_SECRET: SECRET });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.config).toMatchObject({
      port: 8787,
      host: '127.0.0.1',
      workers: Math.min(availableParallelism(), MAX_WORKERS),
      powDifficulty: 18,
      powKeyboardExtraBits: 3,
      mazeWidth: 8,
      mazeHeight: 8,
      mazeDifficulty: 0.3,
      cellSize: 40,
      challengeTtlMs: 120_000,
      keyboardChallengeTtlMs: 600_000,
      probeProbability: 0,
      scoring: { mode: 'enforce', threshold: defaultTable.threshold, table: 'v3' },
      webauthn: { mode: 'off', rpId: '', origins: [], rpName: 'Ariadne' },
      dataDir: './data',
      trustProxy: 0,
      corsOrigins: '*',
      rateLimitPerMinute: DEFAULTS.RATE_LIMIT_PER_MINUTE,
      maxBodyBytes: 262_144,
      maxEvents: 20_000,
      apiPrefix: '/api/captcha',
      logLevel: 'info',
      siteverifyAuthToken: undefined,
      signingKeys: [],
      dashboardToken: undefined,
      traces: { sampleRate: 0, maxCount: 1_000, maxBytes: 16 * 1024 * 1024 },
      powKeyboardSurgeExtraBits: 3,
      keyboardBudgetMinuteMs: 60_000,
      keyboardDoor: { door: 'auto', floorPerMinute: 2, surgeFactor: 3, calmMinutes: 2, clientPerHour: 12 },
    });
    expect(r.warnings).toEqual([]);
  });

  it('reads every variable', () => {
    const r = loadConfig({
      PORT: '9000',
      HOST: '0.0.0.0',
      SIGNING_SECRET: SECRET,
      SIGNING_KEYS: JSON.stringify([{ kid: 'old-1', value: 'y'.repeat(40) }]),
      SITEVERIFY_AUTH_TOKEN: 'tok',
      POW_DIFFICULTY: '20',
      POW_KEYBOARD_EXTRA_BITS: '5',
      MAZE_WIDTH: '10',
      MAZE_HEIGHT: '12',
      MAZE_DIFFICULTY: '0.5',
      CELL_SIZE: '32',
      CHALLENGE_TTL_MS: '60000',
      KEYBOARD_CHALLENGE_TTL_MS: '3600000',
      PROBE_PROBABILITY: '0.25',
      SCORE_THRESHOLD: '0.4',
      SCORING_MODE: 'shadow',
      WEBAUTHN_MODE: 'preferred',
      WEBAUTHN_RP_ID: 'example.com',
      WEBAUTHN_ORIGIN: 'https://example.com, https://shop.example.com',
      WEBAUTHN_RP_NAME: 'Example',
      DATA_DIR: '/var/lib/ariadne',
      TRUST_PROXY: 'true',
      CORS_ORIGINS: 'https://a.example, https://b.example:8443',
      RATE_LIMIT_PER_MINUTE: '0',
      MAX_BODY_BYTES: '100000',
      MAX_EVENTS: '5000',
      API_PREFIX: '/captcha/v1',
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.config).toMatchObject({
      port: 9000,
      host: '0.0.0.0',
      signingKeys: [{ kid: 'old-1', value: 'y'.repeat(40) }],
      siteverifyAuthToken: 'tok',
      powDifficulty: 20,
      powKeyboardExtraBits: 5,
      mazeWidth: 10,
      mazeHeight: 12,
      mazeDifficulty: 0.5,
      cellSize: 32,
      challengeTtlMs: 60_000,
      keyboardChallengeTtlMs: 3_600_000,
      probeProbability: 0.25,
      scoring: { mode: 'shadow', threshold: 0.4 },
      webauthn: { mode: 'preferred', rpId: 'example.com', origins: ['https://example.com', 'https://shop.example.com'], rpName: 'Example' },
      dataDir: '/var/lib/ariadne',
      trustProxy: 1,
      corsOrigins: ['https://a.example', 'https://b.example:8443'],
      rateLimitPerMinute: 0,
      maxBodyBytes: 100_000,
      maxEvents: 5000,
      apiPrefix: '/captcha/v1',
    });
  });

  it.each([
    ['PORT', '70000'],
    ['PORT', 'abc'],
    ['WORKERS', '0'],
    ['WORKERS', String(MAX_WORKERS + 1)],
    ['WORKERS', '1.5'],
    ['WORKERS', 'all'],
    ['POW_DIFFICULTY', '1.5'],
    ['POW_KEYBOARD_EXTRA_BITS', '9'],
    ['POW_KEYBOARD_EXTRA_BITS', '-1'],
    ['POW_KEYBOARD_EXTRA_BITS', '2.5'],
    ['MAZE_WIDTH', '1'],
    ['MAZE_HEIGHT', '33'],
    ['MAZE_DIFFICULTY', '2'],
    ['CELL_SIZE', '0'],
    ['CHALLENGE_TTL_MS', '-1'],
    ['KEYBOARD_CHALLENGE_TTL_MS', '999'],
    ['KEYBOARD_CHALLENGE_TTL_MS', '3600001'],
    ['KEYBOARD_CHALLENGE_TTL_MS', '600000.5'],
    ['PROBE_PROBABILITY', 'often'],
    ['KEYBOARD_DOOR', 'closed'],
    ['KEYBOARD_FLOOR_PER_MINUTE', '0.09'],
    ['KEYBOARD_FLOOR_PER_MINUTE', '1000001'],
    ['KEYBOARD_SURGE_FACTOR', '1.49'],
    ['KEYBOARD_SURGE_FACTOR', '101'],
    ['KEYBOARD_CALM_MINUTES', '0'],
    ['KEYBOARD_CALM_MINUTES', '61'],
    ['KEYBOARD_CALM_MINUTES', '1.5'],
    ['KEYBOARD_CLIENT_PER_HOUR', '-1'],
    ['KEYBOARD_CLIENT_PER_HOUR', '100001'],
    ['KEYBOARD_BUDGET_MINUTE_MS', '999'],
    ['KEYBOARD_BUDGET_MINUTE_MS', '60001'],
    ['POW_KEYBOARD_SURGE_EXTRA_BITS', '9'],
    ['SCORE_THRESHOLD', '1.1'],
    ['SCORE_THRESHOLD', 'high'],
    ['SCORING_MODE', 'strict'],
    ['WEBAUTHN_MODE', 'sometimes'],
    ['TRUST_PROXY', 'maybe'],
    ['CORS_ORIGINS', 'https://a.example/path'],
    ['RATE_LIMIT_PER_MINUTE', '-5'],
    ['MAX_BODY_BYTES', '10'],
    ['MAX_EVENTS', '1e9'],
    ['API_PREFIX', 'no-slash'],
    ['SIGNING_SECRET', 'short'],
    ['DASHBOARD_TOKEN', 'x'.repeat(MIN_DASHBOARD_TOKEN_LENGTH - 1)],
    ['TRACE_SAMPLE_RATE', '1.01'],
    ['TRACE_SAMPLE_RATE', '-0.1'],
    ['TRACE_MAX_COUNT', '0'],
    ['TRACE_MAX_COUNT', '1000001'],
    ['TRACE_MAX_BYTES', '65535'],
    ['TRACE_MAX_BYTES', String(1024 * 1024 * 1024 + 1)],
    ['SIGNING_KEYS', 'not json'],
    ['SIGNING_KEYS', '[{"kid":"a"}]'],
    ['SIGNING_KEYS', `[{"kid":"a","value":"${'z'.repeat(32)}"},{"kid":"a","value":"${'w'.repeat(32)}"}]`],
  ])('%s=%s stops start-up with a message naming it', (name, value) => {
    const r = loadConfig({ SIGNING_SECRET: SECRET, [name]: value });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toContain(name);
  });

  it('accepts WORKERS at its bounds, 1 and MAX_WORKERS', () => {
    for (const workers of [1, MAX_WORKERS]) {
      const r = loadConfig({ SIGNING_SECRET: SECRET, WORKERS: String(workers) });
      expect(r.ok && r.config.workers).toBe(workers);
    }
  });

  it('accepts DASHBOARD_TOKEN from its shortest, and the trace settings at their bounds', () => {
    const token = 'x'.repeat(MIN_DASHBOARD_TOKEN_LENGTH);
    for (const [rate, count, bytes] of [
      ['0', '1', '65536'],
      ['1', '1000000', String(1024 * 1024 * 1024)],
    ] as const) {
      const r = loadConfig({
        SIGNING_SECRET: SECRET,
        DASHBOARD_TOKEN: token,
        TRACE_SAMPLE_RATE: rate,
        TRACE_MAX_COUNT: count,
        TRACE_MAX_BYTES: bytes,
      });
      expect(r.ok && r.config).toMatchObject({
        dashboardToken: token,
        traces: { sampleRate: Number(rate), maxCount: Number(count), maxBytes: Number(bytes) },
      });
    }
  });

  it('warns when TRACE_SAMPLE_RATE samples traces no dashboard can download, and only then', () => {
    const alone = loadConfig({ SIGNING_SECRET: SECRET, TRACE_SAMPLE_RATE: '0.05' });
    expect(alone.ok && alone.warnings).toEqual([expect.stringContaining('TRACE_SAMPLE_RATE=0.05 without DASHBOARD_TOKEN')]);
    const withDashboard = loadConfig({
      SIGNING_SECRET: SECRET,
      TRACE_SAMPLE_RATE: '0.05',
      DASHBOARD_TOKEN: 'x'.repeat(MIN_DASHBOARD_TOKEN_LENGTH),
    });
    expect(withDashboard.ok && withDashboard.warnings).toEqual([]);
    const none = loadConfig({ SIGNING_SECRET: SECRET, TRACE_SAMPLE_RATE: '0' });
    expect(none.ok && none.warnings).toEqual([]);
  });

  it('accepts POW_KEYBOARD_EXTRA_BITS at its bounds, 0 and 8', () => {
    for (const bits of [0, 8]) {
      const r = loadConfig({ SIGNING_SECRET: SECRET, POW_KEYBOARD_EXTRA_BITS: String(bits) });
      expect(r.ok && r.config.powKeyboardExtraBits).toBe(bits);
    }
  });

  it('accepts the keyboard door settings at their bounds', () => {
    for (const [low, high] of [
      [
        {
          KEYBOARD_FLOOR_PER_MINUTE: '0.1',
          KEYBOARD_SURGE_FACTOR: '1.5',
          KEYBOARD_CALM_MINUTES: '1',
          KEYBOARD_CLIENT_PER_HOUR: '0',
          KEYBOARD_BUDGET_MINUTE_MS: '1000',
          POW_KEYBOARD_SURGE_EXTRA_BITS: '0',
        },
        { floorPerMinute: 0.1, surgeFactor: 1.5, calmMinutes: 1, clientPerHour: 0, minuteMs: 1000, bits: 0 },
      ],
      [
        {
          KEYBOARD_FLOOR_PER_MINUTE: '1000000',
          KEYBOARD_SURGE_FACTOR: '100',
          KEYBOARD_CALM_MINUTES: '60',
          KEYBOARD_CLIENT_PER_HOUR: '100000',
          KEYBOARD_BUDGET_MINUTE_MS: '60000',
          POW_KEYBOARD_SURGE_EXTRA_BITS: '8',
        },
        { floorPerMinute: 1_000_000, surgeFactor: 100, calmMinutes: 60, clientPerHour: 100_000, minuteMs: 60_000, bits: 8 },
      ],
    ] as const) {
      const r = loadConfig({ SIGNING_SECRET: SECRET, ...low });
      expect(r.ok).toBe(true);
      if (!r.ok) return;
      const { minuteMs, bits, ...door } = high;
      expect(r.config.keyboardDoor).toMatchObject(door);
      expect(r.config.keyboardBudgetMinuteMs).toBe(minuteMs);
      expect(r.config.powKeyboardSurgeExtraBits).toBe(bits);
    }
    for (const door of ['auto', 'people_first', 'strict', 'surge']) {
      const r = loadConfig({ SIGNING_SECRET: SECRET, KEYBOARD_DOOR: door });
      expect(r.ok && r.config.keyboardDoor.door).toBe(door);
    }
  });

  it('passkeys on without an RP id or origin stop start-up naming the missing variable', () => {
    const noRp = loadConfig({ SIGNING_SECRET: SECRET, WEBAUTHN_MODE: 'required', WEBAUTHN_ORIGIN: 'https://example.com' });
    expect(noRp).toEqual({ ok: false, error: expect.stringMatching(/^Invalid configuration: WEBAUTHN_RP_ID is required/) });
    const noOrigin = loadConfig({ SIGNING_SECRET: SECRET, WEBAUTHN_MODE: 'preferred', WEBAUTHN_RP_ID: 'example.com' });
    expect(noOrigin).toEqual({ ok: false, error: expect.stringMatching(/^Invalid configuration: WEBAUTHN_ORIGIN is required/) });
    const offOrigin = loadConfig({
      SIGNING_SECRET: SECRET,
      WEBAUTHN_MODE: 'preferred',
      WEBAUTHN_RP_ID: 'example.com',
      WEBAUTHN_ORIGIN: 'https://evil.example.net',
    });
    expect(offOrigin.ok).toBe(false);
    if (!offOrigin.ok) expect(offOrigin.error).toContain('WEBAUTHN_ORIGIN');
  });

  it('SCORE_THRESHOLD is the calibrated one unless set; SCORING_MODE=off warns', () => {
    const r = loadConfig({ SIGNING_SECRET: SECRET, SCORE_THRESHOLD: '0' });
    expect(r.ok && r.config.scoring).toEqual({ mode: 'enforce', threshold: 0, table: 'v3' });
    const v1 = loadConfig({ SIGNING_SECRET: SECRET, SCORING_TABLE: 'v1' });
    expect(v1.ok && v1.config.scoring).toEqual({ mode: 'enforce', threshold: scoringTables.v1.threshold, table: 'v1' });
    const bad = loadConfig({ SIGNING_SECRET: SECRET, SCORING_TABLE: 'latest' });
    expect(bad).toEqual({ ok: false, error: expect.stringContaining('SCORING_TABLE') });
    const off = loadConfig({ SIGNING_SECRET: SECRET, SCORING_MODE: 'off' });
    expect(off.ok && off.config.scoring).toEqual({ mode: 'off', threshold: defaultTable.threshold, table: 'v3' });
    expect(off.ok && off.warnings).toEqual([expect.stringContaining('SCORING_MODE=off')]);
    const keysOff = loadConfig({ SIGNING_SECRET: SECRET, SCORING_KEYBOARD_MODE: 'off' });
    expect(keysOff.ok && keysOff.config.scoring).toEqual({
      mode: 'enforce',
      keyboardMode: 'off',
      threshold: defaultTable.threshold,
      table: 'v3',
    });
    expect(keysOff.ok && keysOff.warnings).toEqual([expect.stringContaining('SCORING_KEYBOARD_MODE=off')]);
  });

  it('DATA_DIR falls back to ./data when empty', () => {
    const r = loadConfig({ SIGNING_SECRET: SECRET, DATA_DIR: '  ' });
    expect(r.ok && r.config.dataDir).toBe('./data');
  });

  it('NODE_ENV=production requires SIGNING_SECRET', () => {
    const r = loadConfig({ NODE_ENV: 'production' });
    expect(r).toEqual({ ok: false, error: 'Invalid configuration: SIGNING_SECRET: is required when NODE_ENV=production' });
  });

  it('outside production a missing secret becomes a random one, with a warning', () => {
    const a = loadConfig({});
    const b = loadConfig({});
    expect(a.ok && b.ok).toBe(true);
    if (!a.ok || !b.ok) return;
    expect(a.config.signingSecret).not.toBe(b.config.signingSecret);
    expect(a.config.signingSecret.length).toBeGreaterThanOrEqual(32);
    expect(a.warnings.join('\n')).toMatch(/SIGNING_SECRET is not set/);
  });

  it('API_PREFIX empty mounts the root only', () => {
    const r = loadConfig({ SIGNING_SECRET: SECRET, API_PREFIX: '' });
    expect(r.ok && r.config.apiPrefix).toBe('');
  });

  it('LOG_LEVEL takes pino level names and refuses anything else, naming the variable', () => {
    const quiet = loadConfig({ SIGNING_SECRET: SECRET, LOG_LEVEL: 'warn' });
    expect(quiet.ok && quiet.config.logLevel).toBe('warn');
    const bad = loadConfig({ SIGNING_SECRET: SECRET, LOG_LEVEL: 'loud' });
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error).toMatch(/LOG_LEVEL/);
  });
});

describe('store settings', () => {
  it('default to the embedded store, credentials in a file, an exclusive port', () => {
    const r = loadConfig({ SIGNING_SECRET: SECRET });
    expect(r.ok && r.config.store).toEqual({
      kind: 'memory',
      credentials: 'file',
      sharePort: false,
      redis: { url: 'redis://127.0.0.1:6379', prefix: 'ariadne:', commandTimeoutMs: 1000, clockSkewMs: 1000 },
    });
  });

  it('STORE=redis puts credentials in Redis too unless CREDENTIALS says file', () => {
    const env = {
      SIGNING_SECRET: SECRET,
      STORE: 'redis',
      REDIS_URL: 'rediss://u:p@redis.internal:6380/2',
      REDIS_PREFIX: 'site1:',
      REDIS_COMMAND_TIMEOUT_MS: '250',
      REDIS_CLOCK_SKEW_MS: '0',
      SHARE_PORT: 'true',
    };
    const r = loadConfig(env);
    expect(r.ok && r.config.store).toEqual({
      kind: 'redis',
      credentials: 'redis',
      sharePort: true,
      redis: { url: 'rediss://u:p@redis.internal:6380/2', prefix: 'site1:', commandTimeoutMs: 250, clockSkewMs: 0 },
    });
    const file = loadConfig({ ...env, CREDENTIALS: 'file' });
    expect(file.ok && file.config.store.credentials).toBe('file');
  });

  it("REDIS_CLUSTER and REDIS_SENTINELS with REDIS_SENTINEL_NAME: the servers to reach; REDIS_PASSWORD replaces the URL's", () => {
    const base = { SIGNING_SECRET: SECRET, STORE: 'redis', REDIS_URL: 'rediss://app@x', REDIS_PASSWORD: 'p@ss word' };
    const cluster = loadConfig({ ...base, REDIS_CLUSTER: '10.0.0.1:7000, redis-b:7001,[::1]:7002' });
    expect(cluster.ok && cluster.config.store.redis).toMatchObject({
      url: 'rediss://app:p%40ss%20word@x',
      topology: {
        kind: 'cluster',
        nodes: [
          { host: '10.0.0.1', port: 7000 },
          { host: 'redis-b', port: 7001 },
          { host: '::1', port: 7002 },
        ],
      },
    });
    const sentinel = loadConfig({ ...base, REDIS_SENTINELS: 's1:26379,s2:26379', REDIS_SENTINEL_NAME: 'main' });
    expect(sentinel.ok && sentinel.config.store.redis.topology).toEqual({
      kind: 'sentinel',
      sentinels: [
        { host: 's1', port: 26379 },
        { host: 's2', port: 26379 },
      ],
      name: 'main',
    });
  });

  it.each([
    [{ REDIS_CLUSTER: 'a:7000,b' }, 'REDIS_CLUSTER'],
    [{ REDIS_CLUSTER: 'a:0' }, 'REDIS_CLUSTER'],
    [{ REDIS_CLUSTER: 'a:65536' }, 'REDIS_CLUSTER'],
    [{ REDIS_CLUSTER: Array.from({ length: 65 }, (_, i) => `h${i}:1`).join(',') }, 'REDIS_CLUSTER'],
    [{ REDIS_SENTINELS: 's:26379' }, 'REDIS_SENTINEL_NAME'],
    [{ REDIS_SENTINEL_NAME: 'main' }, 'REDIS_SENTINELS'],
    [{ REDIS_CLUSTER: 'a:1', REDIS_SENTINELS: 's:2', REDIS_SENTINEL_NAME: 'm' }, 'REDIS_CLUSTER and REDIS_SENTINELS'],
  ])('%j stops start-up naming %s', (env, name) => {
    const r = loadConfig({ SIGNING_SECRET: SECRET, STORE: 'redis', ...env });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain(name);
  });

  it('SHARE_PORT=true without STORE=redis stops start-up naming both variables', () => {
    const r = loadConfig({ SIGNING_SECRET: SECRET, SHARE_PORT: 'true' });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toContain('SHARE_PORT');
    expect(r.error).toContain('STORE=redis');
  });

  it.each([
    [{ STORE: 'postgres' }, 'STORE'],
    [{ CREDENTIALS: 'disk' }, 'CREDENTIALS'],
    [{ REDIS_URL: 'http://x' }, 'REDIS_URL'],
    [{ REDIS_PREFIX: 'a{b}' }, 'REDIS_PREFIX'],
    [{ REDIS_COMMAND_TIMEOUT_MS: '9' }, 'REDIS_COMMAND_TIMEOUT_MS'],
    [{ REDIS_COMMAND_TIMEOUT_MS: '60001' }, 'REDIS_COMMAND_TIMEOUT_MS'],
    [{ REDIS_CLOCK_SKEW_MS: '-1' }, 'REDIS_CLOCK_SKEW_MS'],
    [{ SHARE_PORT: 'maybe' }, 'SHARE_PORT'],
  ])('%j stops start-up naming %s', (env, name) => {
    const r = loadConfig({ SIGNING_SECRET: SECRET, ...env });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toContain(name);
  });
});

describe('every numeric variable', () => {
  // Each variable's doc, default and range are declared once (NUMBER_VARIABLES); the docs' tables
  // (`| VARIABLE | default | what, with min–max |`) must say the same.
  const docsDir = new URL('../docs/', import.meta.url);
  const rows = readdirSync(docsDir)
    .filter((f) => f.endsWith('.md'))
    .flatMap((f) => readFileSync(new URL(f, docsDir), 'utf8').split('\n'))
    .filter((line) => /^\| `[A-Z_]+`/.test(line))
    .map((line) => {
      const [names = '', def = '', what = ''] = line
        .split('|')
        .slice(1)
        .map((cell) => cell.trim());
      return { names: [...names.matchAll(/`([A-Z_]+)`/g)].map((m) => m[1]!), def, what };
    });

  for (const [name, v] of Object.entries(NUMBER_VARIABLES)) {
    it(`${name}: documented with its default ${v.default} and its range ${v.min}–${v.max}`, () => {
      const own = rows.filter((r) => r.names.includes(name));
      expect(own.length, `no docs table row names ${name}`).toBeGreaterThan(0);
      expect(own.some((r) => r.def.split(/,\s*/).includes(String(v.default)) && r.what.includes(`${v.min}–${v.max}`))).toBe(true);
    });

    it(`${name}: its bounds are accepted and one step past each refused`, () => {
      const step = v.integer ? 1 : 0.001;
      for (const ok of [v.min, v.max]) expect(loadConfig({ SIGNING_SECRET: SECRET, [name]: String(ok) }).ok).toBe(true);
      for (const bad of [v.min - step, v.max + step]) {
        const r = loadConfig({ SIGNING_SECRET: SECRET, [name]: String(bad) });
        expect(r.ok ? '' : r.error).toContain(name);
      }
    });
  }
});

describe('every variable Ariadne reads', () => {
  // The Configuration table of docs/operating.md is the one list an operator reads: each variable
  // start-up reads has a row there, each row names a variable start-up reads, and the rows of the
  // variables that are not numbers (those are checked above) give their default.
  const section = readFileSync(new URL('../docs/operating.md', import.meta.url), 'utf8').split('\n## ')[1] ?? '';
  const rows = section
    .split('\n')
    .filter((line) => /^\| `[A-Z_]+`/.test(line))
    .map((line) => {
      const [names = '', def = ''] = line
        .split('|')
        .slice(1)
        .map((cell) => cell.trim());
      return { names: [...names.matchAll(/`([A-Z_]+)`/g)].map((m) => m[1]!), def };
    });
  const documented = new Set(rows.flatMap((r) => r.names));

  /** The names loadConfig looks up in `env`, whatever it does with them. */
  const readBy = (env: Record<string, string>): Set<string> => {
    const names = new Set<string>();
    const recording = new Proxy(env, {
      get: (target, name) => {
        if (typeof name === 'string') names.add(name);
        return target[name as string];
      },
      has: (target, name) => {
        if (typeof name === 'string') names.add(name);
        return name in target;
      },
    });
    const r = loadConfig(recording);
    expect(r.ok ? '' : r.error).toBe('');
    return names;
  };
  // One configuration per branch of start-up that reads variables the others do not.
  const configurations: Record<string, string>[] = [
    { SIGNING_SECRET: SECRET },
    { SIGNING_SECRET: SECRET, STORE: 'redis', REDIS_URL: 'redis://127.0.0.1:6379', REDIS_PASSWORD: 'p' },
    { SIGNING_SECRET: SECRET, STORE: 'redis', REDIS_SENTINELS: '127.0.0.1:26379', REDIS_SENTINEL_NAME: 'primary' },
    { SIGNING_SECRET: SECRET, STORE: 'redis', REDIS_CLUSTER: '127.0.0.1:7000' },
    { SIGNING_SECRET: SECRET, WEBAUTHN_MODE: 'preferred', WEBAUTHN_RP_ID: 'example.com', WEBAUTHN_ORIGIN: 'https://example.com' },
  ];
  const read = new Set(configurations.flatMap((env) => [...readBy(env)]));

  it('each one start-up reads has a row in the Configuration table', () => {
    const undocumented = [...read].filter((name) => !documented.has(name) && name !== 'NODE_ENV');
    expect(undocumented).toEqual([]);
  });

  it('each row names a variable start-up reads', () => {
    expect([...documented].filter((name) => !read.has(name))).toEqual([]);
  });

  const texts = Object.entries(DEFAULTS).filter(([name]) => !(name in NUMBER_VARIABLES));
  it.each(texts)('%s: documented with its default %s', (name, def) => {
    const own = rows.find((r) => r.names.includes(name));
    expect(own?.def.replaceAll('`', '')).toBe(String(def));
  });
});

/**
 * Response bodies as typebox schemas: the OpenAPI document is generated from them (with the
 * request schemas of schemas.ts), and the tests check real answers against them, so neither the
 * document nor the answers can drift. Objects are closed: a field not listed here is a bug.
 */
import { type TSchema, Type } from '@sinclair/typebox';
import { MAX_REASONS } from '../core/scoring/reasons/explainScore.js';
import { REASON_CODES } from '../core/scoring/reasons/reasonCodes.js';
import { SOLVE_METHODS } from '../core/token/solveMethod.js';

const closed = <T extends Record<string, TSchema>>(properties: T, description?: string) =>
  Type.Object(properties, { additionalProperties: false, ...(description === undefined ? {} : { description }) });
const opt = <T extends TSchema>(t: T) => Type.Optional(t);
const int = (description?: string) => Type.Integer(description === undefined ? {} : { description });
const TEST = opt(Type.Literal(true, { description: 'The answer of a test key or secret, not of a check' }));
const Cell = closed({ x: int(), y: int() });

const Probe = closed({
  id: Type.String(),
  type: Type.Literal('color_tap'),
  instruction: Type.String(),
  target_color: Type.String(),
  distractor_colors: Type.Array(Type.String()),
  cells: Type.Array(closed({ x: int(), y: int(), color: Type.String() })),
  trigger_cell: Cell,
});

const WebAuthnRequestOptions = closed({
  challenge: Type.String({ description: 'base64url' }),
  rpId: Type.String(),
  timeout: int('ms'),
  userVerification: Type.Literal('required'),
  allowCredentials: Type.Array(closed({ id: Type.String(), type: Type.Literal('public-key'), transports: Type.Array(Type.String()) })),
});

export const ChallengeResponse = closed(
  {
    id: Type.String({ pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$', description: 'Self-authenticating, UUID-shaped' }),
    challenge_type: Type.Union([Type.Literal('maze'), Type.Literal('maze_stroop')]),
    maze_seed: int('uint32'),
    maze_width: int(),
    maze_height: int(),
    maze_difficulty: Type.Number(),
    pow_challenge: Type.String({ pattern: '^[0-9a-f]{32}$' }),
    pow_difficulty: int('Leading zero bits; adaptive per client'),
    pow_difficulty_keyboard: int('Leading zero bits a keyboard solve needs (pow_difficulty + POW_KEYBOARD_EXTRA_BITS, + POW_KEYBOARD_SURGE_EXTRA_BITS in a surge)'),
    keyboard_door: Type.Union([Type.Literal('people_first'), Type.Literal('strict'), Type.Literal('surge')], {
      description: "The site's keyboard door: people_first, strict (keyboard solves scored strictly) or surge (strictly, and a larger keyboard proof of work)",
    }),
    site_key: Type.String(),
    created_at: int('ms'),
    expires_at: int('ms'),
    cell_size: int('px'),
    requirements: closed({
      probe: closed({ mode: Type.Union([Type.Literal('required'), Type.Literal('none')]), required_completion_count: int() }),
      webauthn: closed({ mode: Type.Union([Type.Literal('required'), Type.Literal('preferred'), Type.Literal('none')]) }),
    }),
    probes: opt(Type.Array(Probe)),
    webauthn_request_options: opt(WebAuthnRequestOptions),
    passkey_door: opt(Type.Literal(true, { description: 'The site opened the passkey door and the stable_id has a passkey: POST /passkey passes without a maze' })),
    privacy_pass: opt(Type.Literal(true, { description: 'The site trusts Privacy Pass issuers: GET /privacy-pass may pass without a maze' })),
    test: TEST,
  },
  'A challenge',
);

export const PrivacyPassResponse = closed({ success: Type.Literal(true), token: Type.String({ description: 'Session token (method privacy_pass): single use, 60 s' }) });

export const PasskeyDoorResponse = closed({ success: Type.Literal(true), token: Type.String({ description: 'Session token (method passkey): single use, 60 s' }) });

export const ProbeArmResponse = closed({ success: Type.Literal(true), probe_ticket: Type.String(), armed_at: int('ms'), deadline_at: int('ms') });
export const ProbeCompleteResponse = closed({ success: Type.Literal(true), completion_token: Type.String() });
export const VerifyResponse = closed({ success: Type.Literal(true), token: Type.String({ description: 'Session token: single use, 60 s' }), test: TEST });

const SCORE = Type.Number({ minimum: 0, maximum: 1 });
const REASONS = opt(
  Type.Array(Type.Union(REASON_CODES.map((c) => Type.Literal(c))), {
    minItems: 1,
    maxItems: MAX_REASONS,
    description: 'Why the score is under the threshold, strongest first; only for such tokens minted in shadow mode',
  }),
);
const METHOD = opt(
  Type.Union(SOLVE_METHODS.map((m) => Type.Literal(m)), {
    description: 'How the token was earned: pointer, keyboard (people-first model), keyboard_strict (strict model), privacy_pass (no maze) or passkey (a returning passkey: no maze, or a keyboard solve it let past a tightened keyboard door, then with input_type keyboard); absent in older tokens and test answers',
  }),
);
const CHALLENGE_TS = Type.String({ format: 'date-time' });
const ACTION = opt(Type.String({ description: 'The action of a reCAPTCHA v3 execute that made the token; absent for every other solve' }));
const HOSTNAME = Type.String({ description: 'Hostname of the page that solved, from its Origin header' });
const REMOTEIP_MISMATCH = opt(Type.Boolean({ description: 'With remoteip: whether it differs from the solving address' }));

export const SiteverifySuccess = closed({
  success: Type.Literal(true),
  score: SCORE,
  reasons: REASONS,
  challenge_id: Type.String(),
  session_id: Type.String(),
  site_key: Type.String(),
  input_type: opt(
    Type.Union([Type.Literal('mouse'), Type.Literal('touch'), Type.Literal('pen'), Type.Literal('keyboard')], { description: 'Inferred from the events' }),
  ),
  method: METHOD,
  action: ACTION,
  challenge_ts: CHALLENGE_TS,
  hostname: HOSTNAME,
  'error-codes': Type.Array(Type.String(), { maxItems: 0 }),
  remoteip_mismatch: REMOTEIP_MISMATCH,
  test: TEST,
});

/**
 * A success in another service's shape (routes/compatSiteverify.ts): its fields, its `extras`, and
 * Ariadne's score and reasons (`scoreOptional`: only for some tokens, see Dialect.scoreWithAction).
 */
export const compatSuccess = (service: string, extras: Record<string, TSchema>, scoreOptional = false) =>
  closed(
    {
      success: Type.Literal(true),
      challenge_ts: CHALLENGE_TS,
      hostname: HOSTNAME,
      'error-codes': Type.Array(Type.String(), { maxItems: 0 }),
      action: ACTION,
      ...extras,
      score: scoreOptional ? opt(SCORE) : SCORE,
      reasons: REASONS,
      method: METHOD,
      remoteip_mismatch: REMOTEIP_MISMATCH,
      test: TEST,
    },
    `A token redeemed, in ${service}'s shape plus Ariadne's score (1 = human) and reasons`,
  );

/** A failure in another service's shape: always HTTP 200, its own codes (a missing secret and response together give two). */
export const compatFailure = (service: string, codes: readonly string[]) =>
  closed(
    {
      success: Type.Literal(false),
      'error-codes': Type.Array(Type.Union([...new Set(codes)].map((c) => Type.Literal(c))), { minItems: 1, maxItems: 2 }),
      score: Type.Literal(0),
      test: TEST,
    },
    `A refusal in ${service}'s vocabulary`,
  );

export const RegisterOptionsResponse = closed({
  session_id: Type.String({ description: 'The registration session' }),
  options: Type.Object({}, { description: 'PublicKeyCredentialCreationOptionsJSON' }),
});
export const RegisterVerifyResponse = closed({ success: Type.Literal(true), credential_id: Type.String() });
/** The parts of the store that are down while the rest answers: a Redis Cluster's primary and its slots. */
const DownParts = Type.Array(closed({ part: Type.String(), problem: Type.String() }), {
  description: 'Parts of the store down while the rest answers (a Redis Cluster primary): only their single-use markers answer 503',
});
export const HealthResponse = closed({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')], {
    description: 'degraded: the process answers, its store does not, or only in part',
  }),
  store: closed({
    ok: Type.Boolean(),
    detail: opt(Type.String({ description: 'Why not, when not ok; what is down, when a part is' })),
    down: opt(DownParts),
  }),
});
export const ReadyResponse = closed({ status: Type.Literal('ready'), down: opt(DownParts) });

const detail = opt(Type.String({ description: 'What was wrong, e.g. the field at fault' }));
const code = Type.String();

/** `{success: false, error_code, detail?}`: most routes. */
export const PlainFailure = closed({ success: Type.Literal(false), error_code: code, detail });
/** /verify: never a real score. */
export const VerifyFailure = closed({ success: Type.Literal(false), score: Type.Literal(0), error_code: code, detail, test: TEST });
/** The probe routes also carry `error` (the deployed widget reads it). */
export const ProbeFailure = closed({ success: Type.Literal(false), error: code, error_code: code, detail });
/** /siteverify, Turnstile-style. */
export const SiteverifyFailure = closed({
  success: Type.Literal(false),
  score: Type.Literal(0),
  error: code,
  'error-codes': Type.Array(code, { minItems: 1, maxItems: 1 }),
  detail,
  test: TEST,
});

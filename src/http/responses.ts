/**
 * Response bodies as typebox schemas: the OpenAPI document is generated from them (with the
 * request schemas of schemas.ts), and the tests check real answers against them, so neither the
 * document nor the answers can drift. Objects are closed: a field not listed here is a bug.
 */
import { type TSchema, Type } from '@sinclair/typebox';
import { MAX_REASONS } from '../core/scoring/reasons/explainScore.js';
import { REASON_CODES } from '../core/scoring/reasons/reasonCodes.js';
import { ChallengeSchema } from '../core/challenge/Challenge.js';
import { TEST_MARK, closed, int, opt } from '../core/schemaParts.js';
import { SOLVE_METHODS } from '../core/token/solveMethod.js';

/** A challenge: its shape is declared once, with the core that issues it (core/challenge/Challenge.ts). */
export const ChallengeResponse = ChallengeSchema;

export const PrivacyPassResponse = closed({
  success: Type.Literal(true),
  token: Type.String({ description: 'Session token (method privacy_pass): single use, 60 s' }),
});

export const PasskeyDoorResponse = closed({
  success: Type.Literal(true),
  token: Type.String({ description: 'Session token (method passkey): single use, 60 s' }),
});

export const ProbeArmResponse = closed({
  success: Type.Literal(true),
  probe_ticket: Type.String(),
  armed_at: int('ms'),
  deadline_at: int('ms'),
});
export const ProbeCompleteResponse = closed({ success: Type.Literal(true), completion_token: Type.String() });
export const VerifyResponse = closed({
  success: Type.Literal(true),
  token: Type.String({ description: 'Session token: single use, 60 s' }),
  test: TEST_MARK,
});

const SCORE = Type.Number({ minimum: 0, maximum: 1 });
const REASONS = opt(
  Type.Array(Type.Union(REASON_CODES.map((c) => Type.Literal(c))), {
    minItems: 1,
    maxItems: MAX_REASONS,
    description: 'Why the score is under the threshold, strongest first; only for such tokens minted in shadow mode',
  }),
);
const METHOD = opt(
  Type.Union(
    SOLVE_METHODS.map((m) => Type.Literal(m)),
    {
      description:
        'How the token was earned: pointer, keyboard (people-first model), keyboard_strict (strict model), privacy_pass (no maze) or passkey (a returning passkey: no maze, or a keyboard solve it let past a tightened keyboard door, then with input_type keyboard); absent in older tokens and test answers',
    },
  ),
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
    Type.Union([Type.Literal('mouse'), Type.Literal('touch'), Type.Literal('pen'), Type.Literal('keyboard')], {
      description: 'Inferred from the events',
    }),
  ),
  method: METHOD,
  action: ACTION,
  challenge_ts: CHALLENGE_TS,
  hostname: HOSTNAME,
  'error-codes': Type.Array(Type.String(), { maxItems: 0 }),
  remoteip_mismatch: REMOTEIP_MISMATCH,
  test: TEST_MARK,
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
      test: TEST_MARK,
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
      test: TEST_MARK,
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
export const VerifyFailure = closed({ success: Type.Literal(false), score: Type.Literal(0), error_code: code, detail, test: TEST_MARK });
/** The probe routes also carry `error` (the deployed widget reads it). */
export const ProbeFailure = closed({ success: Type.Literal(false), error: code, error_code: code, detail });
/** /siteverify, Turnstile-style. */
export const SiteverifyFailure = closed({
  success: Type.Literal(false),
  score: Type.Literal(0),
  error: code,
  'error-codes': Type.Array(code, { minItems: 1, maxItems: 1 }),
  detail,
  test: TEST_MARK,
});

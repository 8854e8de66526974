/**
 * The challenge /challenge answers, declared once as a typebox schema: the core's type is derived
 * from it, the OpenAPI document and the tests' checks of real answers read it (http/responses.ts),
 * and the browser client imports the type only (no schema code reaches the bundle).
 */
import { type Static, Type } from '@sinclair/typebox';
import { TEST_MARK, closed, int, opt } from '../schemaParts.js';

const Cell = closed({ x: int(), y: int() });

/** The probe as sent to the client: without `isTarget`, which would hand a bot the answer. */
export const ProbeSchema = closed({
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

export const ChallengeSchema = closed(
  {
    id: Type.String({
      pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$',
      description: 'Self-authenticating, UUID-shaped',
    }),
    challenge_type: Type.Union([Type.Literal('maze'), Type.Literal('maze_stroop')]),
    maze_seed: int('uint32'),
    maze_width: int(),
    maze_height: int(),
    maze_difficulty: Type.Number(),
    pow_challenge: Type.String({ pattern: '^[0-9a-f]{32}$' }),
    pow_difficulty: int('Leading zero bits; adaptive per client'),
    pow_difficulty_keyboard: int(
      'Leading zero bits a keyboard solve needs (pow_difficulty + POW_KEYBOARD_EXTRA_BITS, + POW_KEYBOARD_SURGE_EXTRA_BITS in a surge)',
    ),
    keyboard_door: Type.Union([Type.Literal('people_first'), Type.Literal('strict'), Type.Literal('surge')], {
      description:
        "The site's keyboard door: people_first, strict (keyboard solves scored strictly) or surge (strictly, and a larger keyboard proof of work)",
    }),
    site_key: Type.String(),
    created_at: int('ms'),
    expires_at: int('ms'),
    cell_size: int('px'),
    requirements: closed({
      probe: closed({ mode: Type.Union([Type.Literal('required'), Type.Literal('none')]), required_completion_count: int() }),
      webauthn: closed({ mode: Type.Union([Type.Literal('required'), Type.Literal('preferred'), Type.Literal('none')]) }),
    }),
    probes: opt(Type.Array(ProbeSchema)),
    webauthn_request_options: opt(WebAuthnRequestOptions),
    passkey_door: opt(
      Type.Literal(true, {
        description: 'The site opened the passkey door and the stable_id has a passkey: POST /passkey passes without a maze',
      }),
    ),
    privacy_pass: opt(
      Type.Literal(true, { description: 'The site trusts Privacy Pass issuers: GET /privacy-pass may pass without a maze' }),
    ),
    test: TEST_MARK,
  },
  'A challenge',
);

export type Challenge = Static<typeof ChallengeSchema>;
export type ProbeView = Static<typeof ProbeSchema>;

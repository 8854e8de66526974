/**
 * Request schemas, compiled once per server (the events cap comes from config). Objects accept
 * and ignore unknown fields; every string and array is capped (see docs/operating.md "Limits").
 */
import { type Static, type TSchema, Type } from '@sinclair/typebox';
import { type TypeCheck, TypeCompiler } from '@sinclair/typebox/compiler';
import { opt } from '../core/schemaParts.js';
import { SITE_KEY_PATTERN } from '../core/sites/sitesFileSchema.js';
import { IDEMPOTENCY_KEY_PATTERN } from '../core/token/idempotencyKey.js';

export const LIMITS = {
  siteKey: 128,
  challengeId: 64,
  sessionId: 256,
  stableId: 256,
  probeId: 64,
  eventType: 16,
  key: 32,
  publicKey: 1024,
  signature: 256,
  powHash: 128,
  token: 4096,
  completionTokens: 8,
  pointerTypes: 8,
  webauthnField: 16_384,
  secret: 256,
  remoteIp: 64,
  action: 100,
} as const;

/** reCAPTCHA's rule for an action (letters, digits, slashes, underscores), with Turnstile's hyphen. */
const ACTION_PATTERN = '^[A-Za-z0-9_/-]*$';
const text = (maxLength: number) => Type.String({ maxLength });
const required = (maxLength: number) => Type.String({ minLength: 1, maxLength });
/** Site keys are compared as exact strings: a safe character set, nothing that normalises or folds. */
const siteKey = () => Type.String({ minLength: 1, maxLength: LIMITS.siteKey, pattern: SITE_KEY_PATTERN });

const RawEvent = Type.Object({
  x: Type.Number(),
  y: Type.Number(),
  t: Type.Number(),
  type: text(LIMITS.eventType),
  pointer_type: opt(text(LIMITS.eventType)),
  coalesced_count: opt(Type.Number()),
  key: opt(text(LIMITS.key)),
});

const events = (maxEvents: number) => Type.Array(RawEvent, { maxItems: maxEvents });

const Challenge = Type.Object({
  site_key: siteKey(),
  stable_id: opt(text(LIMITS.stableId)),
  client_capabilities: opt(
    Type.Object({
      reduced_motion: opt(Type.Boolean()),
      webauthn_available: opt(Type.Boolean()),
      pointer_types: opt(Type.Array(text(LIMITS.eventType), { maxItems: LIMITS.pointerTypes })),
    }),
  ),
});

const ProbeArm = (maxEvents: number) =>
  Type.Object({
    challenge_id: required(LIMITS.challengeId),
    site_key: siteKey(),
    session_id: required(LIMITS.sessionId),
    probe_id: required(LIMITS.probeId),
    events: events(maxEvents),
  });

const ProbeComplete = Type.Object({
  challenge_id: required(LIMITS.challengeId),
  session_id: required(LIMITS.sessionId),
  probe_ticket: required(LIMITS.token),
  tapped_cell: Type.Object({ x: Type.Integer(), y: Type.Integer() }),
});

const WebAuthnAssertion = Type.Object({
  id: text(LIMITS.webauthnField),
  rawId: text(LIMITS.webauthnField),
  type: text(LIMITS.eventType),
  response: Type.Object({
    clientDataJSON: text(LIMITS.webauthnField),
    authenticatorData: text(LIMITS.webauthnField),
    signature: text(LIMITS.webauthnField),
    userHandle: opt(text(LIMITS.webauthnField)),
  }),
});

const Verify = (maxEvents: number) =>
  Type.Object({
    challenge_id: required(LIMITS.challengeId),
    site_key: siteKey(),
    session_id: required(LIMITS.sessionId),
    maze_seed: opt(Type.Number()),
    events: events(maxEvents),
    pow_proof: Type.Object({ nonce: Type.Number(), hash: text(LIMITS.powHash) }),
    public_key: required(LIMITS.publicKey),
    signature: required(LIMITS.signature),
    timestamp: Type.Number(),
    stable_id: opt(text(LIMITS.stableId)),
    cell_size: opt(Type.Number()),
    input_type: opt(text(LIMITS.eventType)),
    probe_completion_tokens: opt(Type.Array(text(LIMITS.token), { maxItems: LIMITS.completionTokens })),
    webauthn: opt(WebAuthnAssertion),
    action: opt(
      Type.String({
        maxLength: LIMITS.action,
        pattern: ACTION_PATTERN,
        description: "reCAPTCHA v3's action (grecaptcha.execute(key, {action})): carried by the token and answered by siteverify",
      }),
    ),
  });

const PasskeyDoor = Type.Object({
  challenge_id: required(LIMITS.challengeId),
  site_key: siteKey(),
  session_id: required(LIMITS.sessionId),
  stable_id: required(LIMITS.stableId),
  webauthn: WebAuthnAssertion,
});

/** The fields of every shape of siteverify beside the token (and session) it redeems. */
const redeemerFields = () => ({
  secret: opt(Type.String({ maxLength: LIMITS.secret, description: "The site's secret (or send it as the bearer token)" })),
  sitekey: opt(
    // Empty means not given (form posts send every field).
    Type.String({ maxLength: LIMITS.siteKey, pattern: '^[A-Za-z0-9._-]*$', description: 'The token must belong to this site key' }),
  ),
  // Empty means not given.
  remoteip: opt(
    Type.String({ maxLength: LIMITS.remoteIp, description: 'The address you saw the user at; compared with the solving address' }),
  ),
  idempotency_key: opt(
    Type.String({
      pattern: IDEMPOTENCY_KEY_PATTERN,
      description: "A retry with the same key within the token's life gets the first answer again",
    }),
  ),
});

/** Presence is checked by siteverify itself ("missing fields answer at once"); types here. */
const Siteverify = Type.Object({
  token: opt(text(LIMITS.token)),
  session_id: opt(text(LIMITS.sessionId)),
  ...redeemerFields(),
});

/** The reCAPTCHA, hCaptcha and Turnstile shapes (routes/compatSiteverify.ts); presence checked by siteverifyCompat. */
const CompatSiteverify = Type.Object({
  response: opt(Type.String({ maxLength: LIMITS.token, description: 'The token from the hidden form field: what /verify returned' })),
  ...redeemerFields(),
});

const RegisterOptions = Type.Object({
  site_key: siteKey(),
  stable_id: required(LIMITS.stableId),
});

const RegisterVerify = Type.Object({
  session_id: required(LIMITS.token),
  response: Type.Object({}),
});

export type ChallengeBody = Static<typeof Challenge>;
export type ProbeArmBody = Static<ReturnType<typeof ProbeArm>>;
export type ProbeCompleteBody = Static<typeof ProbeComplete>;
export type VerifyBody = Static<ReturnType<typeof Verify>>;
export type SiteverifyBody = Static<typeof Siteverify>;
export type CompatSiteverifyBody = Static<typeof CompatSiteverify>;
export type RegisterOptionsBody = Static<typeof RegisterOptions>;
export type RegisterVerifyBody = Static<typeof RegisterVerify>;
export type PasskeyDoorBody = Static<typeof PasskeyDoor>;

export function compileSchemas(maxEvents: number) {
  return {
    challenge: TypeCompiler.Compile(Challenge),
    probeArm: TypeCompiler.Compile(ProbeArm(maxEvents)),
    probeComplete: TypeCompiler.Compile(ProbeComplete),
    verify: TypeCompiler.Compile(Verify(maxEvents)),
    siteverify: TypeCompiler.Compile(Siteverify),
    compatSiteverify: TypeCompiler.Compile(CompatSiteverify),
    registerOptions: TypeCompiler.Compile(RegisterOptions),
    registerVerify: TypeCompiler.Compile(RegisterVerify),
    passkeyDoor: TypeCompiler.Compile(PasskeyDoor),
  };
}

export type Schemas = ReturnType<typeof compileSchemas>;

/** The first schema error as `field: message`, the field as a slash path without the leading slash. */
export function schemaError<T extends TSchema>(check: TypeCheck<T>, value: unknown): string {
  const e = check.Errors(value).First();
  if (e === undefined) return 'body: invalid';
  return `${e.path === '' ? 'body' : e.path.slice(1)}: ${e.message}`;
}

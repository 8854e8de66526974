/**
 * fast-check arbitraries of hostile requests: every route, wrong types, huge and deep values,
 * unicode with lone surrogates, numbers at the edges, odd media types and headers.
 */
import fc from 'fast-check';

export interface FuzzRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'OPTIONS';
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array<ArrayBuffer>;
}

/** Each POST route and the fields its body has, so mutations hit real fields. */
export const POST_ROUTES: Record<string, readonly string[]> = {
  '/challenge': ['site_key', 'stable_id', 'client_capabilities'],
  '/probe/arm': ['challenge_id', 'site_key', 'session_id', 'probe_id', 'events'],
  '/probe/complete': ['challenge_id', 'session_id', 'probe_ticket', 'tapped_cell'],
  '/verify': [
    'challenge_id',
    'site_key',
    'session_id',
    'events',
    'pow_proof',
    'public_key',
    'signature',
    'timestamp',
    'stable_id',
    'webauthn',
    'probe_completion_tokens',
  ],
  // `response` or `secret` without `token` and `session_id` selects hCaptcha's shape.
  '/siteverify': ['token', 'session_id', 'response', 'secret', 'sitekey', 'remoteip', 'idempotency_key'],
  '/recaptcha/api/siteverify': ['response', 'secret', 'sitekey', 'remoteip', 'idempotency_key'],
  '/turnstile/v0/siteverify': ['response', 'secret', 'sitekey', 'remoteip', 'idempotency_key'],
  '/webauthn/register/options': ['site_key', 'stable_id'],
  '/webauthn/register/verify': ['session_id', 'response'],
  '/passkey': ['challenge_id', 'site_key', 'session_id', 'stable_id', 'webauthn'],
};
const GET_ROUTES = ['/healthz', '/readyz', '/metrics', '/openapi.json'];

/** Any UTF-16 code units, lone surrogates included (fast-check's string units never split a pair). */
const codeUnits = (maxLength: number) =>
  fc.array(fc.integer({ min: 0, max: 0xffff }), { maxLength }).map((units) => String.fromCharCode(...units));

const edgeNumber = fc.constantFrom(
  0,
  -0,
  1,
  -1,
  0.5,
  2 ** 31 - 1,
  2 ** 31,
  2 ** 32,
  -(2 ** 31),
  2 ** 53,
  -(2 ** 53),
  2 ** 53 + 2,
  Number.MAX_VALUE,
  -Number.MAX_VALUE,
  Number.MIN_VALUE,
  1e-320,
  1e308,
  4294967295,
  4294967296,
);

const nastyString = fc.oneof(
  codeUnits(24),
  fc.string({ unit: 'grapheme', maxLength: 16 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\ud800b',
    'a\udbffb',
    '\udc00',
    '😀',
    's',
    'site-b',
    'test-always-pass',
    '__proto__',
    'constructor',
    '../../x',
    '%00',
    '<script>',
    'public-key',
  ),
  fc.constantFrom(64, 65, 128, 129, 256, 257, 1024, 1025, 4096, 4097, 16_385, 70_000, 270_000).map((n) => 'A'.repeat(n)),
);

const leaf = fc.oneof(nastyString, edgeNumber, fc.double(), fc.integer(), fc.boolean(), fc.constant(null));

const value: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof({ depthSize: 'small' }, leaf, fc.array(tie('v'), { maxLength: 4 }), fc.dictionary(nastyString, tie('v'), { maxKeys: 4 })),
})).v;

/** JSON nested `depth` deep (past the 16 the server allows, or just within). */
const deep = fc
  .tuple(fc.integer({ min: 12, max: 64 }), fc.boolean())
  .map(([depth, arrays]) => (arrays ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`));

const number = fc.oneof(edgeNumber, fc.double(), fc.integer());
/** Strings a client could mean (the site key set) as often as hostile ones. */
const plausible = fc.oneof(fc.stringMatching(/^[A-Za-z0-9._-]{1,12}$/), fc.constantFrom('s', 'site-b', 'fuzz-site'), nastyString);
const base64url = fc.oneof(
  fc.uint8Array({ maxLength: 96 }).map((b) => Buffer.from(b).toString('base64url')),
  nastyString,
);
const or = <T>(shape: fc.Arbitrary<T>) => fc.oneof({ weight: 4, arbitrary: shape }, { weight: 1, arbitrary: value });

/** Per field: mostly its own type with hostile contents, sometimes anything at all. */
const FIELDS: Record<string, fc.Arbitrary<unknown>> = {
  events: or(
    fc.array(
      fc.record(
        {
          x: number,
          y: number,
          t: number,
          type: fc.oneof(fc.constantFrom('down', 'move', 'up', 'keydown'), nastyString),
          pointer_type: plausible,
          key: plausible,
        },
        { requiredKeys: ['x', 'y', 't', 'type'] },
      ),
      { maxLength: 30 },
    ),
  ),
  pow_proof: or(fc.record({ nonce: number, hash: base64url })),
  tapped_cell: or(fc.record({ x: number, y: number })),
  timestamp: or(number),
  client_capabilities: or(
    fc.record(
      { reduced_motion: fc.boolean(), webauthn_available: fc.boolean(), pointer_types: fc.array(plausible, { maxLength: 10 }) },
      { requiredKeys: [] },
    ),
  ),
  probe_completion_tokens: or(fc.array(base64url, { maxLength: 10 })),
  webauthn: or(
    fc.record({
      id: base64url,
      rawId: base64url,
      type: fc.constantFrom('public-key', 'password'),
      response: fc.record(
        { clientDataJSON: base64url, authenticatorData: base64url, signature: base64url, userHandle: base64url },
        { requiredKeys: [] },
      ),
    }),
  ),
  response: or(
    fc.record({
      id: base64url,
      rawId: base64url,
      type: fc.constantFrom('public-key', 'password'),
      response: fc.record(
        { clientDataJSON: base64url, attestationObject: base64url, transports: fc.array(plausible) },
        { requiredKeys: [] },
      ),
    }),
  ),
};
const fieldValue = (field: string) =>
  FIELDS[field] ?? fc.oneof({ weight: 5, arbitrary: plausible }, { weight: 1, arbitrary: number }, { weight: 1, arbitrary: value });

/** A body for a route: its fields with hostile values, random extra keys, or not JSON at all. */
const bodyFor = (fields: readonly string[]): fc.Arbitrary<string | Uint8Array<ArrayBuffer>> => {
  const shaped = Object.fromEntries(fields.map((f) => [f, fieldValue(f)]));
  return fc.oneof(
    { weight: 6, arbitrary: fc.record(shaped).map((o) => JSON.stringify(o)) },
    { weight: 3, arbitrary: fc.record(shaped, { requiredKeys: [] }).map((o) => JSON.stringify(o)) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.record(shaped), fc.dictionary(nastyString, value, { maxKeys: 3 }))
        .map(([a, b]) => JSON.stringify({ ...b, ...a })),
    },
    { weight: 1, arbitrary: value.map((v) => JSON.stringify(v) ?? 'null') },
    { weight: 1, arbitrary: deep },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 256 }).map((b) => new Uint8Array(b)) },
    { weight: 1, arbitrary: fc.record(shaped).map((o) => JSON.stringify(o).slice(0, -3)) },
    {
      weight: 1,
      arbitrary: fc
        .dictionary(fc.constantFrom(...fields), fc.string({ maxLength: 20 }), { maxKeys: fields.length })
        .map((o) => new URLSearchParams(o).toString()),
    },
  );
};

/** Printable header values (what fetch can send), with some that matter to the server. */
const headerValue = fc.oneof(
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 40 }),
  fc.constantFrom('', 'null', '*'),
);

const headers = fc
  .record(
    {
      'content-type': fc.constantFrom(
        'application/json',
        'Application/JSON',
        'application/x-www-form-urlencoded',
        'APPLICATION/X-WWW-FORM-URLENCODED; charset=UTF-8',
        'text/plain',
        'multipart/form-data; boundary=x',
        '',
      ),
      origin: fc.oneof(fc.constantFrom('https://shop.example.com', 'null', 'http://localhost'), headerValue),
      authorization: fc.oneof(
        fc.constant('Bearer '),
        headerValue.map((v) => `Bearer ${v}`),
        headerValue,
      ),
      'x-forwarded-for': fc.oneof(
        fc.ipV4(),
        fc.ipV6(),
        headerValue,
        fc.array(fc.ipV4(), { maxLength: 5 }).map((a) => a.join(', ')),
      ),
      accept: fc.constantFrom('application/json', '*/*', 'text/html'),
    },
    { requiredKeys: [] },
  )
  .map((h) => Object.fromEntries(Object.entries(h).filter(([, v]) => v !== '')) as Record<string, string>);

const prefix = fc.constantFrom('', '/api/captcha');

const postRequest: fc.Arbitrary<FuzzRequest> = fc
  .tuple(prefix, fc.constantFrom(...Object.keys(POST_ROUTES)), headers)
  .chain(([p, route, h]) => bodyFor(POST_ROUTES[route]!).map((body) => ({ method: 'POST' as const, path: p + route, headers: h, body })));

/** GET /privacy-pass with a fuzzed query and, mostly, a PrivateToken header of random bytes or text. */
const privacyPassRequest: fc.Arbitrary<FuzzRequest> = fc
  .tuple(
    prefix,
    fc.dictionary(fc.constantFrom('challenge_id', 'site_key', 'session_id', 'x'), fc.oneof(fc.string({ maxLength: 80 }), fc.uuid()), {
      maxKeys: 4,
    }),
    fc.oneof(
      fc.uint8Array({ maxLength: 400 }).map((b) => `PrivateToken token="${Buffer.from(b).toString('base64url')}"`),
      headerValue.map((v) => `PrivateToken ${v}`),
      headerValue,
    ),
    headers,
  )
  .map(([p, query, authorization, h]) => ({
    method: 'GET' as const,
    path: `${p}/privacy-pass?${new URLSearchParams(query)}`,
    headers: { ...h, authorization },
  }));

const otherRequest: fc.Arbitrary<FuzzRequest> = fc.oneof(
  privacyPassRequest,
  fc
    .tuple(prefix, fc.constantFrom(...GET_ROUTES), headers)
    .map(([p, route, h]) => ({ method: 'GET' as const, path: p + route, headers: h })),
  fc
    .tuple(
      fc.constantFrom('PUT', 'DELETE', 'OPTIONS') as fc.Arbitrary<'PUT' | 'DELETE' | 'OPTIONS'>,
      prefix,
      fc.constantFrom(...Object.keys(POST_ROUTES), ...GET_ROUTES, '/nowhere'),
      headers,
    )
    .map(([method, p, route, h]) => ({ method, path: p + route, headers: h })),
  fc
    .tuple(fc.webPath(), headers)
    .map(([path, h]) => ({ method: 'GET' as const, path: path.startsWith('/') ? path : `/${path}`, headers: h })),
);

/** Mostly POST routes with hostile bodies; the rest every other route and method. */
export const fuzzRequest: fc.Arbitrary<FuzzRequest> = fc.oneof(
  { weight: 5, arbitrary: postRequest },
  { weight: 1, arbitrary: otherRequest },
);

/** One character of `text` at `index` replaced by another of the base64url alphabet. */
export function tamper(text: string, index: number): string {
  const i = index % text.length;
  const c = text[i] === 'A' ? 'B' : 'A';
  return text.slice(0, i) + c + text.slice(i + 1);
}

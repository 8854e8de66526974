/**
 * GET /openapi.json: an OpenAPI 3.1 document generated from what the server really runs: each
 * POST route's request schema (the compiled validator's own schema, schemas.ts), its success and
 * failure bodies (responses.ts) and its error codes with their statuses (core/errors.ts), the GET
 * routes, and whatever `mount` registered. Nothing in it is written by hand twice.
 */
import { readFileSync } from 'node:fs';
import type { TSchema } from '@sinclair/typebox';
import { type ErrorCode, ErrorStatus } from '../../core/errors.js';
import { PlainFailure } from '../responses.js';
import type { GetRoute, PostRoute } from '../route.js';
import type { RegisteredRoute } from './RouteTable.js';

export interface OpenApiInput {
  postRoutes: readonly PostRoute[];
  getRoutes: readonly GetRoute[];
  /** Routes registered by ServerOptions.mount. */
  mounted: readonly RegisteredRoute[];
  /** '' when the API is served at the root only. */
  apiPrefix: string;
}

type Json = Record<string, unknown>;

/** Codes any POST route can answer, whatever it does. */
const EVERY_POST: readonly ErrorCode[] = ['invalid_request', 'payload_too_large', 'internal_error', 'store_unavailable'];
const MOUNTED_SUMMARIES: Record<string, string> = {
  'get /': 'The demo: a sign-up form protected by the widget',
  'get /ariadne.js': 'The widget as a classic script',
  'get /ariadne.mjs': 'The widget as an ES module',
  'get /ariadne-worker.js': "The widget's proof-of-work worker",
  'get /kernel.wasm': 'The kernel (maze, replay, proof of work), as the widget runs it',
  'post /demo/signup': "The demo's backend: redeems the token in-process",
  'get /recaptcha/api.js': "The widget behind reCAPTCHA v2's browser API (window.grecaptcha)",
  'get /1/api.js': "The widget behind hCaptcha's browser API (window.hcaptcha, and window.grecaptcha unless recaptchacompat=off)",
  'get /1/secure-api.js': "The same script as /1/api.js, at the path of hCaptcha's secure-api loader option",
  'get /turnstile/v0/api.js': "The widget behind Turnstile's browser API (window.turnstile)",
};

const version = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/** A plain JSON copy of a typebox schema (its symbols dropped), safe to modify. */
const plain = (schema: TSchema): Json => JSON.parse(JSON.stringify(schema)) as Json;

export function buildOpenApiDocument(input: OpenApiInput): Json {
  const servers = [{ url: '/' }, ...(input.apiPrefix === '' ? [] : [{ url: input.apiPrefix, description: 'API_PREFIX' }])];
  const paths: Record<string, Json> = {};
  for (const route of input.postRoutes) paths[route.path] = { servers, post: postOperation(route) };
  for (const route of input.getRoutes) paths[route.path] = { servers, get: getOperation(route) };
  for (const r of input.mounted) {
    const method = r.method === 'del' ? 'delete' : r.method;
    paths[r.path] = { ...paths[r.path], [method]: mountedOperation(r) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Ariadne',
      version,
      description:
        'Self-hosted human verification: a maze traced by a person, a proof of work and a single-use token. ' +
        'Every API route is served at the root and under API_PREFIX. Failures carry a stable code (components.schemas.ErrorCode).',
    },
    servers: [{ url: '/' }],
    paths,
    components: {
      schemas: {
        ErrorCode: {
          type: 'string',
          enum: Object.keys(ErrorStatus),
          description: Object.entries(ErrorStatus)
            .map(([code, status]) => `${code}: ${status}`)
            .join('; '),
        },
      },
      securitySchemes: {
        operatorToken: { type: 'http', scheme: 'bearer', description: 'SITEVERIFY_AUTH_TOKEN' },
        siteSecret: { type: 'http', scheme: 'bearer', description: "A site's secret (sites file), or the `secret` body field" },
      },
    },
  };
}

function postOperation(route: PostRoute): Json {
  const schema = requestSchema(route);
  const content: Json = { 'application/json': { schema } };
  if (route.form === true) content['application/x-www-form-urlencoded'] = { schema };
  const codes = [...route.errors, ...EVERY_POST, ...(route.bucket === undefined ? [] : (['rate_limited'] as const))];
  const answers = [...okAnswers(route), ...(route.variant === undefined ? [] : okAnswers(route.variant.route))];
  const responses: Record<string, Json> = {
    '200': {
      description: route.verdicts === undefined && route.alwaysOk === undefined ? 'Success' : 'Success, or a verdict with success: false',
      content: { 'application/json': { schema: answers.length === 1 ? answers[0] : { oneOf: answers } } },
    },
    ...(route.alwaysOk === true ? {} : failureResponses(route.failure, codes)),
  };
  const operation: Json = {
    operationId: operationId('post', route.path),
    summary: route.summary,
    requestBody: { required: true, content },
    responses,
  };
  if (route.variant !== undefined) operation.description = route.variant.rule;
  if (route.bySecret === true) operation.security = [{ siteSecret: [] }, { operatorToken: [] }, {}];
  return operation;
}

/** The request body: the route's schema, with the fields of its variant's shape added (its own win). */
function requestSchema(route: PostRoute): Json {
  const schema = plain(route.check.Schema());
  if (route.variant === undefined) return schema;
  const other = plain(route.variant.route.check.Schema());
  return { ...schema, properties: { ...(other.properties as Json), ...(schema.properties as Json) }, description: route.variant.rule };
}

/** The schemas of a route's HTTP 200 answers: its success, and its verdicts or (alwaysOk) every refusal. */
function okAnswers(route: PostRoute): Json[] {
  if (route.alwaysOk === true) return [plain(route.success), plain(route.failure)];
  return route.verdicts === undefined ? [plain(route.success)] : [plain(route.success), withCodes(route.failure, route.verdicts)];
}

function getOperation(route: GetRoute): Json {
  const body = typeof route.success === 'string' ? { [route.success]: {} } : { 'application/json': { schema: plain(route.success) } };
  const operation: Json = {
    operationId: operationId('get', route.path),
    summary: route.summary,
    responses: { '200': { description: 'Success', content: body }, ...failureResponses(PlainFailure, route.errors) },
  };
  if (route.errors.includes('unauthorized')) operation.security = [{ operatorToken: [] }, {}];
  if (route.query !== undefined) {
    operation.parameters = Object.entries(route.query).map(([name, maxLength]) => ({
      name,
      in: 'query',
      required: true,
      schema: { type: 'string', minLength: 1, maxLength },
    }));
  }
  return operation;
}

function mountedOperation(r: RegisteredRoute): Json {
  const key = `${r.method} ${r.path}`;
  const responses: Json =
    r.method === 'post'
      ? {
          '200': { description: 'The outcome (HTML, or JSON when asked for)' },
          '400': { description: 'Refused' },
          '413': { description: 'Body over 16 KB' },
        }
      : { '200': { description: 'The file' }, '304': { description: 'Not modified (ETag)' } };
  return {
    operationId: operationId(r.method, r.path),
    summary: MOUNTED_SUMMARIES[key] ?? 'A file of the browser client or the demo',
    responses,
  };
}

/** One response per HTTP status, its failure body's code fields limited to that status's codes. */
function failureResponses(failure: TSchema, codes: readonly ErrorCode[]): Record<string, Json> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set(codes)) {
    const status = ErrorStatus[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<string, Json> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    const response: Json = { description: list.join(', '), content: { 'application/json': { schema: withCodes(failure, list) } } };
    if (status === 429) response.headers = { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds' } };
    if (status === 401) response.headers = { 'WWW-Authenticate': { schema: { type: 'string', const: 'Bearer' } } };
    out[String(status)] = response;
  }
  return out;
}

/** The failure body with `error_code`/`error`/`error-codes` limited to `codes`. */
function withCodes(failure: TSchema, codes: readonly ErrorCode[]): Json {
  const schema = plain(failure);
  const properties = schema.properties as Record<string, Json>;
  const oneOf = { type: 'string', enum: [...codes] };
  for (const field of ['error_code', 'error']) if (field in properties) properties[field] = oneOf;
  if ('error-codes' in properties) properties['error-codes'] = { ...properties['error-codes'], items: oneOf };
  return schema;
}

function operationId(method: string, path: string): string {
  const name =
    path === '/' ? 'root' : path.replace(/^\//, '').replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase());
  return `${method}${name.charAt(0).toUpperCase()}${name.slice(1)}`;
}

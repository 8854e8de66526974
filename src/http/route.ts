import type { TSchema } from '@sinclair/typebox';
import type { TypeCheck } from '@sinclair/typebox/compiler';
import type { CoreContext } from '../core/context.js';
import { type ErrorCode, ErrorStatus, type Failure, failure } from '../core/errors.js';
import type { Reply } from './reply.js';

/** What the HTTP layer learned about a request before its body arrived. */
export interface RequestInfo {
  /** Origin header, '' when absent. */
  origin: string;
  authorization: string;
  contentType: string;
  /** Client address (see peerAddress.ts); '' when no rate limit applies. */
  address: string;
}

/** Rate-limit buckets: /verify gets RATE_LIMIT_PER_MINUTE, the others ten times as much. */
export type Bucket = 'verify' | 'challenge' | 'probe';

/** A POST route: schema-checked body in, Reply out. */
export interface PostRoute {
  path: string;
  check: TypeCheck<TSchema>;
  bucket?: Bucket;
  /** Also accept application/x-www-form-urlencoded bodies. */
  form?: boolean;
  /** What the route does, for the OpenAPI document. */
  summary: string;
  /** Its success body, for the OpenAPI document. */
  success: TSchema;
  /** Its failure body, for the OpenAPI document (error_code/error set per status there). */
  failure: TSchema;
  /** Every code it can fail with beyond those of every POST route (see openapi/). */
  errors: readonly ErrorCode[];
  /** Codes answered with HTTP 200 and `success: false` (the verdicts of /siteverify). */
  verdicts?: readonly ErrorCode[];
  /** Authenticated by a site's secret (the `secret` field or the bearer token), for the OpenAPI document. */
  bySecret?: true;
  /**
   * Every failure is HTTP 200 with `success: false` (the shapes of other services, whose
   * verifiers read the body and take any other status for an outage); `failure` is then the
   * whole 200 refusal, codes included.
   */
  alwaysOk?: true;
  /** Another shape served at the same path, chosen by the decoded body before it is checked. */
  variant?: { selects(body: unknown): boolean; route: PostRoute; rule: string };
  /** The route's failure body (the shapes differ per route, see docs/operating.md, Routes). */
  fail(f: Failure): Reply;
  handle(ctx: CoreContext, body: never, info: RequestInfo): Promise<Reply>;
}

/** A GET route of the API (served at the root and under API_PREFIX): no body, the bearer token if any. */
export interface GetRoute {
  path: string;
  summary: string;
  /** A JSON body's schema, or the content type of a body that is not described further. */
  success: TSchema | 'text/plain' | 'application/json';
  errors: readonly ErrorCode[];
  /** The route reads its request (GetRequest): its query, Host, Origin and client address. */
  request?: true;
  /** Its required query parameters and their longest lengths, for the OpenAPI document. */
  query?: Readonly<Record<string, number>>;
  answer(authorization: string, request?: GetRequest): Promise<Reply>;
}

/** What a GetRoute with `request` is told of its request. */
export interface GetRequest {
  /** The query string, without the `?`. */
  query: string;
  host: string;
  /** Origin header, '' when absent. */
  origin: string;
  /** Client address (see peerAddress.ts). */
  address: string;
}

/** Codes of a request naming a site from a page (core/sites/admitSite.ts). */
export const ADMISSION_ERRORS = ['unknown_site_key', 'hostname_not_allowed'] as const satisfies readonly ErrorCode[];
/** Codes of a request naming a challenge id (core/challenge/authenticateChallengeId.ts). */
export const CHALLENGE_ID_ERRORS = [
  'challenge_not_found',
  'site_key_mismatch',
  'challenge_expired',
] as const satisfies readonly ErrorCode[];

/** A failure reply: the code's status, `{success: false, ...fields}` and the detail when there is one. */
export function failureReply(f: Failure, fields: Record<string, unknown>): Reply {
  const body = { success: false, ...fields };
  return { status: ErrorStatus[f.code], code: f.code, body: f.detail === undefined ? body : { ...body, detail: f.detail } };
}

/** `{success: false, error_code, detail?}`: the failure shape of most routes. */
export function plainFailure(f: Failure): Reply {
  return failureReply(f, { error_code: f.code });
}

/** 429 `rate_limited` in the route's failure shape, saying in Retry-After when the window turns. */
export function rateLimitedReply(retryAfterSeconds: number, fail: (f: Failure) => Reply = plainFailure): Reply {
  return { ...fail(failure('rate_limited')), headers: [['retry-after', String(retryAfterSeconds)]] };
}

/** 200 with `ok(r)` as the body when the outcome `r` is ok, else the route's failure reply. */
export function answer<T extends { ok: true }>(
  r: T | { ok: false; failure: Failure },
  fail: (f: Failure) => Reply,
  ok: (r: T) => unknown,
): Reply {
  return r.ok ? { status: 200, body: ok(r) } : fail(r.failure);
}

import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { reject } from './rejection.js';
import type { Rejection } from './rejection.js';

const BASE64URL = /^[A-Za-z0-9_-]+$/;
/** A credential id is at most 1023 bytes (WebAuthn), 1364 base64url characters. */
const MAX_ID_LENGTH = 1364;
/** Caps per encoded field: generous for real authenticators, small enough to bound the work. */
const MAX_FIELD_LENGTH = 16_384;
const MAX_ATTESTATION_LENGTH = 65_536;

export type ReadResult<T> = { ok: true; value: T } | Rejection;

/**
 * Checks the JSON shape of a navigator.credentials.create() result: every binary field a
 * base64url string within its cap. A failure names the field under `at`.
 */
export function readRegistrationResponse(value: unknown, at: string): ReadResult<RegistrationResponseJSON> {
  const read = readCredential(value, at, {
    clientDataJSON: MAX_FIELD_LENGTH,
    attestationObject: MAX_ATTESTATION_LENGTH,
  });
  if (!read.ok) return read;
  const { response } = read.value;
  const transports = response.transports;
  const validTransports =
    Array.isArray(transports) && transports.length <= 8 && transports.every((t) => typeof t === 'string' && t.length <= 32);
  return withResponse(read.value, {
    clientDataJSON: response.clientDataJSON as string,
    attestationObject: response.attestationObject as string,
    ...(validTransports ? { transports: transports as string[] } : {}),
  });
}

/** Checks the JSON shape of a navigator.credentials.get() result, as readRegistrationResponse. */
export function readAssertionResponse(value: unknown, at: string): ReadResult<AuthenticationResponseJSON> {
  const read = readCredential(value, at, {
    clientDataJSON: MAX_FIELD_LENGTH,
    authenticatorData: MAX_FIELD_LENGTH,
    signature: MAX_FIELD_LENGTH,
  });
  if (!read.ok) return read;
  const { response } = read.value;
  // userHandle is optional (null or empty when the authenticator keeps none).
  const hasUserHandle = response.userHandle !== undefined && response.userHandle !== null && response.userHandle !== '';
  if (hasUserHandle && field(response, 'userHandle', MAX_FIELD_LENGTH) !== undefined) {
    return invalid(`${at}.response.userHandle`);
  }
  return withResponse(read.value, {
    clientDataJSON: response.clientDataJSON as string,
    authenticatorData: response.authenticatorData as string,
    signature: response.signature as string,
  });
}

interface CredentialFields {
  id: string;
  rawId: string;
  response: Record<string, unknown>;
}

/**
 * The part both ceremonies share: the ids, the type, and each `required` field of `response`
 * a base64url string of at most its cap (checked in the order given, the first bad one named).
 */
function readCredential(value: unknown, at: string, required: Record<string, number>): ReadResult<CredentialFields> {
  if (!isObject(value)) return invalid(at);
  const bad = field(value, 'id', MAX_ID_LENGTH) ?? field(value, 'rawId', MAX_ID_LENGTH);
  if (bad !== undefined) return invalid(`${at}.${bad}`);
  if (value.type !== 'public-key') return invalid(`${at}.type`);
  const response = value.response;
  if (!isObject(response)) return invalid(`${at}.response`);
  for (const [key, max] of Object.entries(required)) {
    if (field(response, key, max) !== undefined) return invalid(`${at}.response.${key}`);
  }
  return { ok: true, value: { id: value.id as string, rawId: value.rawId as string, response } };
}

/** The credential JSON handed to the library: only the checked fields, no extensions. */
function withResponse<R>(read: CredentialFields, response: R) {
  return {
    ok: true as const,
    value: { id: read.id, rawId: read.rawId, type: 'public-key' as const, clientExtensionResults: {}, response },
  };
}

/** The name of `key` when it is not a non-empty base64url string of at most `max` characters. */
function field(obj: Record<string, unknown>, key: string, max: number): string | undefined {
  const v = obj[key];
  return typeof v === 'string' && v.length <= max && BASE64URL.test(v) ? undefined : key;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function invalid(detail: string): Rejection {
  return reject('invalid_request', detail);
}

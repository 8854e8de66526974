import type { TSchema } from '@sinclair/typebox';
import type { TypeCheck } from '@sinclair/typebox/compiler';
import type { CoreContext, Passkeys } from '../../core/context.js';
import { type ErrorCode, failure } from '../../core/errors.js';
import { sitePasskeys } from '../../core/sites/sitePasskeys.js';
import { createRegistrationOptions } from '../../core/webauthn/createRegistrationOptions.js';
import { registrationSiteKey, verifyRegistration } from '../../core/webauthn/verifyRegistration.js';
import type { Reply } from '../reply.js';
import { PlainFailure, RegisterOptionsResponse, RegisterVerifyResponse } from '../responses.js';
import { type PostRoute, plainFailure } from '../route.js';
import type { RegisterOptionsBody, RegisterVerifyBody, Schemas } from '../schemas.js';

const OFF = plainFailure(failure('not_found', 'passkeys are off'));
const UNKNOWN_SITE = plainFailure(failure('unknown_site_key'));

/** The passkey settings of a site key: a reply when it is unknown or its passkeys are off. */
function passkeysOf(ctx: CoreContext, siteKey: string): Passkeys | Reply {
  const site = ctx.sites.resolve(siteKey);
  if (site === undefined || site.test !== undefined) return UNKNOWN_SITE;
  return sitePasskeys(ctx.passkeys, site) ?? OFF;
}

const isReply = (p: Passkeys | Reply): p is Reply => 'status' in p;

/** A registration route: not found while passkeys are off for the site. */
function passkeyRoute<B>(
  path: string,
  summary: string,
  check: TypeCheck<TSchema>,
  success: TSchema,
  errors: readonly ErrorCode[],
  run: (ctx: CoreContext, body: B) => Promise<Reply>,
): PostRoute {
  return {
    path,
    summary,
    check,
    success,
    failure: PlainFailure,
    errors: ['not_found', 'unknown_site_key', ...errors],
    bucket: 'challenge',
    fail: plainFailure,
    handle: (ctx, body: B) => run(ctx, body),
  };
}

export const registerOptionsRoute = (schemas: Schemas) =>
  passkeyRoute(
    '/webauthn/register/options',
    'Open a passkey registration session for (site_key, stable_id)',
    schemas.registerOptions,
    RegisterOptionsResponse,
    ['registration_failed'],
    async (ctx, body: RegisterOptionsBody) => {
      const passkeys = passkeysOf(ctx, body.site_key);
      if (isReply(passkeys)) return passkeys;
      const r = await createRegistrationOptions(
        { ...passkeys, ring: ctx.ring },
        { siteKey: body.site_key, stableId: body.stable_id },
        ctx.now(),
      );
      return r.ok ? { status: 200, body: { session_id: r.session_id, options: r.options } } : plainFailure(r);
    },
  );

export const registerVerifyRoute = (schemas: Schemas) =>
  passkeyRoute(
    '/webauthn/register/verify',
    'Close a registration session: verify the attestation and store the passkey',
    schemas.registerVerify,
    RegisterVerifyResponse,
    ['registration_session_not_found', 'registration_failed'],
    async (ctx, body: RegisterVerifyBody) => {
      if (ctx.passkeys === undefined) return OFF;
      const siteKey = registrationSiteKey(body.session_id, ctx.ring);
      if (siteKey === undefined) return plainFailure(failure('registration_session_not_found'));
      const passkeys = passkeysOf(ctx, siteKey);
      if (isReply(passkeys)) return passkeys;
      const r = await verifyRegistration(
        { ...passkeys, store: ctx.store, ring: ctx.ring },
        { sessionId: body.session_id, response: body.response },
        ctx.now(),
      );
      return r.ok ? { status: 200, body: { success: true, credential_id: r.credential_id } } : plainFailure(r);
    },
  );

import { createHash, timingSafeEqual } from 'node:crypto';
import { AuthorizationHeader, TOKEN_TYPES, type Token, publicVerif, util } from '@cloudflare/privacypass-ts';
import { authenticateChallengeId } from '../challenge/authenticateChallengeId.js';
import { consumeChallenge } from '../challenge/consumeChallenge.js';
import type { CoreContext } from '../context.js';
import type { ClientInfo } from '../challenge/issueChallenge.js';
import { type Failure, failure } from '../errors.js';
import { issueDoorToken } from '../redeem/issueDoorToken.js';
import { admitSite } from '../sites/admitSite.js';
import type { PrivacyPassIssuer } from './PrivacyPassIssuer.js';
import { type IssuerChallenge, tokenChallenges } from './tokenChallenges.js';

export interface PrivacyPassInput {
  challengeId: string;
  siteKey: string;
  sessionId: string;
  /** The request's Authorization header ('' when absent). */
  authorization: string;
  /** The host the browser reached this server at (its Host header): the challenges' origin info. */
  host: string;
}

/**
 * `challenges`: the PrivateToken challenges to answer with (WWW-Authenticate), on
 * privacy_pass_required.
 */
export type PrivacyPassResult = { ok: true; token: string } | { ok: false; failure: Failure; challenges?: readonly IssuerChallenge[] };

const BLIND_RSA = TOKEN_TYPES.BLIND_RSA;
const fail = (code: Failure['code'], detail?: string): PrivacyPassResult => ({ ok: false, failure: failure(code, detail) });

/** Imported token keys, by their base64url text (only configured keys reach it). */
const cryptoKeys = new Map<string, Promise<CryptoKey>>();
const cryptoKeyOf = (tokenKey: string): Promise<CryptoKey> => {
  let key = cryptoKeys.get(tokenKey);
  if (key === undefined) {
    // WebCrypto imports RSA-PSS keys under the rsaEncryption OID only: the library converts.
    const spki = util.convertRSASSAPSSToEnc(new Uint8Array(Buffer.from(tokenKey, 'base64url')));
    key = crypto.subtle.importKey('spki', new Uint8Array(spki), BLIND_RSA.rsaParams, false, ['verify']);
    cryptoKeys.set(tokenKey, key);
  }
  return key;
};

const ONLY_TYPE_2 = 'only token type 0x0002 (publicly verifiable, blind RSA) is accepted';
const sha256 = (b: Uint8Array | Buffer): Buffer => createHash('sha256').update(b).digest();
const same = (a: Uint8Array, b: Buffer): boolean => a.length === b.length && timingSafeEqual(a, b);

/** The one PrivateToken token of the header, or why there is none: parsed by the library. */
function readToken(authorization: string): Token | Failure {
  let parsed: AuthorizationHeader[];
  try {
    parsed = AuthorizationHeader.parse(BLIND_RSA, authorization);
  } catch (e) {
    // The library reads the type from the token and refuses one other than the type it is given.
    if (e instanceof Error && e.message === 'mismatch of token type') return failure('privacy_pass_unsupported_type', ONLY_TYPE_2);
    return failure('privacy_pass_malformed', 'the token is not base64url');
  }
  if (parsed.length !== 1) return failure('privacy_pass_malformed', 'expected one PrivateToken token');
  const { token } = parsed[0]!;
  const input = token.authInput;
  if (input.tokenType !== BLIND_RSA.value) return failure('privacy_pass_unsupported_type', ONLY_TYPE_2);
  // The library slices the rest by type 0x0002's sizes, without checking that they are there.
  const sized =
    input.nonce.length === 32 &&
    input.challengeDigest.length === 32 &&
    input.tokenKeyId.length === BLIND_RSA.Nid &&
    token.authenticator.length === BLIND_RSA.Nk;
  return sized ? token : failure('privacy_pass_malformed', 'the token is too short for type 0x0002');
}

/**
 * The Privacy Pass door (RFC 9576-9578, token type 0x0002): a token from an issuer the site trusts,
 * bound to an Ariadne challenge, earns a session token without a maze. For an admitted site
 * (unknown_site_key, hostname_not_allowed) that trusts issuers (not_found otherwise) and an
 * authentic, unexpired challenge of it (challenge_not_found, site_key_mismatch, challenge_expired):
 *  1. no PrivateToken Authorization: privacy_pass_required, with the challenges to send;
 *  2. the header holds one token of type 0x0002 (privacy_pass_malformed,
 *     privacy_pass_unsupported_type);
 *  3. its challenge digest is one of this challenge's and host's, its key id one of that
 *     issuer's keys, its blind RSA signature verifies (privacy_pass_rejected);
 *  4. the challenge is consumed, once over every node (challenge_not_found: redeemed already; a
 *     full store: store_unavailable). A token answers this challenge only (its digest binds the
 *     challenge's redemption context), so spending the challenge spends the token.
 * The session token carries score 1 and method `privacy_pass`: the site weighs the door.
 */
export async function redeemPrivacyPass(ctx: CoreContext, input: PrivacyPassInput, client: ClientInfo): Promise<PrivacyPassResult> {
  const admitted = admitSite(ctx.sites, input.siteKey, client.origin);
  if (!admitted.ok) return admitted;
  const { site } = admitted;
  const issuers = site.test === undefined ? site.policy.privacyPassIssuers : undefined;
  if (issuers === undefined) return fail('not_found', 'Privacy Pass is off for this site');
  const auth = authenticateChallengeId(ctx.challengeKeys, input.challengeId, site, ctx.now(), ctx.config, false);
  if (!auth.ok) return auth;
  const { challenge } = auth;
  const challenges = tokenChallenges(issuers, challenge.id, input.host);
  if (!/^PrivateToken(\s|$)/i.test(input.authorization)) return { ok: false, failure: failure('privacy_pass_required'), challenges };

  const token = readToken(input.authorization);
  if ('code' in token) return { ok: false, failure: token };
  const answered = challenges.find((c) => same(token.authInput.challengeDigest, c.digest));
  if (answered === undefined) return fail('privacy_pass_rejected', 'the token answers another challenge or origin');
  const key = keyOf(issuers, answered.issuer, token.authInput.tokenKeyId);
  if (key === undefined) return fail('privacy_pass_rejected', `the token key is not one of ${answered.issuer}'s trusted keys`);
  const verifier = new publicVerif.Origin(publicVerif.BlindRSAMode.PSS);
  if (!(await verifier.verify(token, await cryptoKeyOf(key.tokenKey))))
    return fail('privacy_pass_rejected', 'the token signature does not verify');

  const spent = await consumeChallenge(ctx.store, challenge);
  if (spent !== undefined) return { ok: false, failure: spent };

  const sessionToken = issueDoorToken(
    ctx,
    'privacy_pass',
    { challengeId: challenge.id, sessionId: input.sessionId, siteKey: site.key },
    client,
  );
  return { ok: true, token: sessionToken };
}

/** The key of `name` whose id (SHA-256 of its bytes) is `keyId`. */
function keyOf(issuers: readonly PrivacyPassIssuer[], name: string, keyId: Uint8Array): PrivacyPassIssuer | undefined {
  return issuers.find((i) => i.name === name && same(keyId, sha256(Buffer.from(i.tokenKey, 'base64url'))));
}

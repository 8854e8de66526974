import { createHash } from 'node:crypto';
import { TOKEN_TYPES, TokenChallenge, WWWAuthenticateHeader } from '@cloudflare/privacypass-ts';
import type { PrivacyPassIssuer } from './PrivacyPassIssuer.js';

/** One issuer's token challenge for one Ariadne challenge, as sent and as a token must digest it. */
export interface IssuerChallenge {
  issuer: string;
  /** `PrivateToken challenge=..., token-key=...` (RFC 9577, section 2.1). */
  header: string;
  /** SHA-256 of the serialised TokenChallenge: a token's `challenge_digest` for it. */
  digest: Buffer;
}

/** A fresh copy: the library reads bytes through `.buffer`, which a pooled Buffer shares. */
const bytes = (b: Buffer): Uint8Array => new Uint8Array(b);

/**
 * The redemption context of an Ariadne challenge: 32 bytes only its id gives, so a token answers
 * one challenge and no other (RFC 9577, section 2.1.1.2). The id is authenticated by the
 * server's key, the context need not be secret.
 */
export function redemptionContext(challengeId: string): Buffer {
  return createHash('sha256').update(`ariadne privacy pass redemption context\0${challengeId}`).digest();
}

/**
 * Per issuer name, the token challenge bound to `challengeId` with `originHost` (the host the
 * browser reached this server at) as its origin info. A name listed with several keys (a
 * rotation) announces its first key; tokens under any of its keys are accepted.
 */
export function tokenChallenges(issuers: readonly PrivacyPassIssuer[], challengeId: string, originHost: string): IssuerChallenge[] {
  const context = bytes(redemptionContext(challengeId));
  const seen = new Set<string>();
  const out: IssuerChallenge[] = [];
  for (const issuer of issuers) {
    if (seen.has(issuer.name)) continue;
    seen.add(issuer.name);
    const challenge = new TokenChallenge(TOKEN_TYPES.BLIND_RSA.value, issuer.name, context, [originHost]);
    const header = new WWWAuthenticateHeader(challenge, bytes(Buffer.from(issuer.tokenKey, 'base64url'))).toString();
    out.push({ issuer: issuer.name, header, digest: createHash('sha256').update(challenge.serialize()).digest() });
  }
  return out;
}

/**
 * A Privacy Pass issuer and client for tests, built with @cloudflare/privacypass-ts: real type
 * 0x0002 tokens (blind RSA, 2048 bits), issued for the challenges a server sends or for any
 * challenge a test makes up.
 */
import { AuthorizationHeader, TOKEN_TYPES, TokenChallenge, WWWAuthenticateHeader, publicVerif } from '@cloudflare/privacypass-ts';
import { redemptionContext } from '../../src/core/privacyPass/tokenChallenges.js';

const { BlindRSAMode, Client, Issuer, getPublicKeyBytes } = publicVerif;

export interface TestIssuer {
  name: string;
  /** base64url, as PRIVACY_PASS_ISSUERS and the sites file take it. */
  tokenKey: string;
  /** `name=tokenKey`, one PRIVACY_PASS_ISSUERS entry. */
  entry: string;
  /** The Authorization header answering this issuer's challenge among the WWW-Authenticate values, or undefined when none is its. */
  answer(wwwAuthenticate: readonly string[]): Promise<string | undefined>;
  /** The Authorization header of a token for a challenge made up by the test. */
  tokenFor(c: { challengeId: string; host: string; issuerName?: string }): Promise<string>;
}

export async function testIssuer(name: string): Promise<TestIssuer> {
  const keys = await Issuer.generateKey(BlindRSAMode.PSS, { modulusLength: 2048, publicExponent: Uint8Array.from([1, 0, 1]) });
  const issuer = new Issuer(BlindRSAMode.PSS, name, keys.privateKey, keys.publicKey);
  const keyBytes = await getPublicKeyBytes(keys.publicKey);
  const tokenKey = Buffer.from(keyBytes).toString('base64url');
  const issue = async (challenge: TokenChallenge): Promise<string> => {
    const client = new Client(BlindRSAMode.PSS);
    const request = await client.createTokenRequest(challenge, keyBytes);
    const token = await client.finalize(await issuer.issue(request));
    return new AuthorizationHeader(token).toString();
  };
  return {
    name,
    tokenKey,
    entry: `${name}=${tokenKey}`,
    async answer(values) {
      const mine = values.flatMap((v) => WWWAuthenticateHeader.parse(v)).find((h) => h.challenge.issuerName === name);
      return mine === undefined ? undefined : issue(mine.challenge);
    },
    tokenFor: (c) =>
      issue(
        new TokenChallenge(TOKEN_TYPES.BLIND_RSA.value, c.issuerName ?? name, new Uint8Array(redemptionContext(c.challengeId)), [c.host]),
      ),
  };
}

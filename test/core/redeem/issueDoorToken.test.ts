import { describe, expect, it } from 'vitest';
import { issueDoorToken } from '../../../src/core/redeem/issueDoorToken.js';
import { SESSION_TOKEN_TYP } from '../../../src/core/redeem/issueSessionToken.js';
import { keyRing } from '../../../src/core/token/keys.js';
import { readToken } from '../../../src/core/token/readToken.js';

describe('issueDoorToken', () => {
  it.each(['passkey', 'privacy_pass'] as const)(
    'mints a %s session token: score 1, the door as method, no input type, bound to the client',
    (method) => {
      const ring = keyRing('door-token-secret-0123456789abcdef', []);
      const now = 1_800_000_000_500;
      const token = issueDoorToken(
        { ring, now: () => now },
        method,
        { challengeId: 'ch-1', sessionId: 'sess-1', siteKey: 'site-a' },
        { origin: 'https://shop.example.com:8443', address: '203.0.113.7' },
      );
      const read = readToken(token, ring, SESSION_TOKEN_TYP);
      expect(read.ok && read.claims).toEqual({
        typ: SESSION_TOKEN_TYP,
        challenge_id: 'ch-1',
        session_id: 'sess-1',
        site_key: 'site-a',
        jti: expect.any(String),
        iat: 1_800_000_000,
        exp: 1_800_000_060,
        score: 1,
        method,
        hostname: 'shop.example.com',
        ip: '203.0.113.7',
      });
    },
  );
});

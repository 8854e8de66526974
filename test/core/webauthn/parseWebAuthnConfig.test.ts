import { describe, expect, it } from 'vitest';
import { parseWebAuthnConfig } from '../../../src/core/webauthn/parseWebAuthnConfig.js';

describe('parseWebAuthnConfig', () => {
  it('is off by default and needs nothing else then', () => {
    expect(parseWebAuthnConfig({})).toEqual({ mode: 'off', rpId: '', origins: [], rpName: 'Ariadne' });
  });

  it('reads mode, RP id, a comma-separated origin list and RP name', () => {
    expect(
      parseWebAuthnConfig({
        WEBAUTHN_MODE: 'required',
        WEBAUTHN_RP_ID: 'Example.com',
        WEBAUTHN_ORIGIN: 'https://example.com, https://shop.example.com:8443,',
        WEBAUTHN_RP_NAME: 'Shop',
      }),
    ).toEqual({
      mode: 'required',
      rpId: 'example.com',
      origins: ['https://example.com', 'https://shop.example.com:8443'],
      rpName: 'Shop',
    });
  });

  it.each([
    [{ WEBAUTHN_MODE: 'sometimes' }, /WEBAUTHN_MODE must be one of off, preferred, required/],
    [{ WEBAUTHN_MODE: 'preferred', WEBAUTHN_ORIGIN: 'https://example.com' }, /WEBAUTHN_RP_ID is required when WEBAUTHN_MODE=preferred/],
    [{ WEBAUTHN_MODE: 'required', WEBAUTHN_RP_ID: 'example.com' }, /WEBAUTHN_ORIGIN is required when WEBAUTHN_MODE=required/],
    [
      { WEBAUTHN_MODE: 'required', WEBAUTHN_RP_ID: 'https://example.com', WEBAUTHN_ORIGIN: 'https://example.com' },
      /WEBAUTHN_RP_ID must be a domain name/,
    ],
    [
      { WEBAUTHN_MODE: 'required', WEBAUTHN_RP_ID: '127.0.0.1', WEBAUTHN_ORIGIN: 'http://127.0.0.1' },
      /WEBAUTHN_RP_ID must be a domain name/,
    ],
    [
      { WEBAUTHN_MODE: 'required', WEBAUTHN_RP_ID: 'example.com', WEBAUTHN_ORIGIN: 'example.com' },
      /WEBAUTHN_ORIGIN entry "example.com" is not a URL origin/,
    ],
    [{ WEBAUTHN_MODE: 'required', WEBAUTHN_RP_ID: 'example.com', WEBAUTHN_ORIGIN: 'https://example.com/' }, /must be a bare origin/],
    [{ WEBAUTHN_MODE: 'required', WEBAUTHN_RP_ID: 'example.com', WEBAUTHN_ORIGIN: 'http://example.com' }, /must use https/],
    [
      { WEBAUTHN_MODE: 'required', WEBAUTHN_RP_ID: 'example.com', WEBAUTHN_ORIGIN: 'https://example.org' },
      /not on WEBAUTHN_RP_ID "example.com"/,
    ],
    [{ WEBAUTHN_MODE: 'required', WEBAUTHN_RP_ID: 'example.com', WEBAUTHN_ORIGIN: 'https://notexample.com' }, /not on WEBAUTHN_RP_ID/],
  ])('stops start-up on %j', (env, message) => {
    expect(() => parseWebAuthnConfig(env)).toThrow(message);
  });

  it('accepts localhost over plain http (browsers treat it as a secure context)', () => {
    const config = parseWebAuthnConfig({
      WEBAUTHN_MODE: 'preferred',
      WEBAUTHN_RP_ID: 'localhost',
      WEBAUTHN_ORIGIN: 'http://localhost:8787',
    });
    expect(config).toMatchObject({ mode: 'preferred', rpId: 'localhost', origins: ['http://localhost:8787'] });
  });
});

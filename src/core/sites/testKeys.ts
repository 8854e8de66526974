/**
 * Keys for integrators' own tests, as Turnstile and hCaptcha offer: no maze, no proof of work,
 * a fixed outcome, and every answer flagged `test: true`. Off when NODE_ENV=production unless
 * TEST_KEYS=on (config.ts); a sites file cannot claim these names.
 */

/** Site keys whose /verify always passes (with DUMMY_TOKEN) or always fails. */
export const TEST_SITE_KEYS = {
  'test-always-pass': 'pass',
  'test-always-fail': 'fail',
} as const;

/** /siteverify secrets with a fixed verdict, whatever the token. */
export const TEST_SECRETS = {
  'test-secret-always-pass': 'pass',
  'test-secret-always-fail': 'fail',
  'test-secret-already-used': 'used',
} as const;

export type TestSecretVerdict = (typeof TEST_SECRETS)[keyof typeof TEST_SECRETS];

/** The token /verify hands out for the passing test key; only a test secret accepts it. */
export const DUMMY_TOKEN = 'XXXX.DUMMY.TOKEN.XXXX';

/** The challenge id of every test challenge (no maze is ever checked against it). */
export const TEST_CHALLENGE_ID = '00000000-0000-0000-0000-000000000000';

export function testSiteOutcome(siteKey: string): 'pass' | 'fail' | undefined {
  return Object.hasOwn(TEST_SITE_KEYS, siteKey) ? TEST_SITE_KEYS[siteKey as keyof typeof TEST_SITE_KEYS] : undefined;
}

export function testSecretVerdict(secret: string): TestSecretVerdict | undefined {
  return Object.hasOwn(TEST_SECRETS, secret) ? TEST_SECRETS[secret as keyof typeof TEST_SECRETS] : undefined;
}

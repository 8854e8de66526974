/**
 * The scripts with the reCAPTCHA, hCaptcha and Turnstile APIs (src/client/compat), by built
 * file, and the paths they are served at: the ones those services' loaders and wrappers build
 * from a host name, so pointing them at this service's origin is enough.
 */
export const COMPAT_SCRIPT_PATHS: Readonly<Record<string, readonly string[]>> = {
  '/compat-recaptcha.js': ['/recaptcha/api.js'],
  '/compat-hcaptcha.js': ['/1/api.js', '/1/secure-api.js'],
  '/compat-turnstile.js': ['/turnstile/v0/api.js'],
};

// /1/api.js and /1/secure-api.js: hCaptcha's `window.hcaptcha` (and `window.grecaptcha`, unless
// the query says recaptchacompat=off) over Ariadne's widget. The token goes to
// `h-captcha-response` and, in reCAPTCHA compatibility, to `g-recaptcha-response` too.
import { randomId } from '../element.js';
import { CompatRegistry } from './CompatRegistry.js';
import { type Flavour, isButton } from './CompatWidget.js';
import { startCompat } from './startCompat.js';

startCompat(['/1/api.js', '/1/secure-api.js'], (compat) => {
  const recaptchaCompat = compat.query.get('recaptchacompat') !== 'off';
  const flavour: Flavour = {
    className: 'h-captcha',
    widgetId: () => randomId().replace(/-/g, '').slice(0, 16),
    fieldNames: () => (recaptchaCompat ? ['h-captcha-response', 'g-recaptcha-response'] : ['h-captcha-response']),
    fieldTag: 'textarea',
    invisible: (params, container) => params.size === 'invisible' || isButton(container),
    dismissCallback: 'close-callback',
    dismissArgs: [],
    errorArgs: (code) => [code === 'network' ? 'network-error' : 'challenge-error'],
  };
  const registry = new CompatRegistry(flavour, 'first');
  const hcaptcha = {
    ...registry.commonApi(),
    getRespKey: (id?: unknown): string => registry.find(id)?.getRespKey() ?? '',
    close: (id?: unknown): void => registry.find(id)?.close(),
    /** Data for the challenge (rqdata): Ariadne's puzzle takes none, so it is accepted and unused. */
    setData: (): void => undefined,
    /**
     * Runs the check: `execute(id?)`, or `execute(id?, {async: true})` for a promise of
     * `{response, key}` that rejects with 'challenge-closed' when the person closes the puzzle.
     */
    execute(id?: unknown, options?: { async?: boolean }): Promise<{ response: string; key: string }> | undefined {
      if (id !== null && typeof id === 'object' && !(id instanceof HTMLElement))
        return hcaptcha.execute(undefined, id as { async?: boolean });
      const widget = registry.get(id);
      const pending = widget.execute();
      if (!options?.async) return undefined;
      return pending.then(
        (response) => ({ response, key: widget.getRespKey() }),
        (error: Error) => Promise.reject(error.message),
      );
    },
  };
  const globals = window as unknown as Record<string, unknown>;
  globals.hcaptcha = hcaptcha;
  if (recaptchaCompat) globals.grecaptcha = hcaptcha;
  return registry;
});

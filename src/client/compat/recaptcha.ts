// /recaptcha/api.js: reCAPTCHA v2's `window.grecaptcha` over Ariadne's widget. Containers are
// `.g-recaptcha` elements or explicit render() calls; the token goes to `g-recaptcha-response`.
import type { Params } from './callBack.js';
import { CompatRegistry } from './CompatRegistry.js';
import { type Flavour, isButton } from './CompatWidget.js';
import { startCompat } from './startCompat.js';

const flavour: Flavour = {
  className: 'g-recaptcha',
  widgetId: (n) => n,
  fieldNames: () => ['g-recaptcha-response'],
  fieldTag: 'textarea',
  invisible: (params, container) => params.size === 'invisible' || isButton(container),
  // reCAPTCHA has no close callback: the error callback is the one that tells the page.
  dismissCallback: 'error-callback',
  dismissArgs: [],
  errorArgs: () => [],
};

startCompat(['/recaptcha/api.js'], (compat) => {
  const registry = new CompatRegistry(flavour, 'first');
  /** Widgets made for `execute(siteKey, {action})` (reCAPTCHA v3 style), one per site key and action. */
  const bySiteKey = new Map<string, string | number>();
  const holder = (): HTMLElement => document.body.appendChild(document.createElement('div'));
  const common = registry.commonApi();
  const grecaptcha = {
    ...common,
    /** `render(container, params)`, or v3's `render(params)`, which renders an invisible widget whose tokens are v3's (an action, empty until execute names one). */
    render(container: unknown, params?: Params): string | number {
      if (container !== null && typeof container === 'object' && !(container instanceof HTMLElement)) {
        return registry.render(holder(), { size: 'invisible', action: '', ...(container as Params) }).id;
      }
      return common.render(container, params);
    },
    /**
     * Opens the puzzle of an invisible widget; the promise (v3 style) resolves with the token,
     * which carries the `action` given (v3's `execute(key or id, {action})`): siteverify answers
     * such tokens as v3 answers, with score and action. A site key gets an invisible widget per
     * action (the action empty without one).
     */
    execute(id?: unknown, options?: unknown): Promise<string> {
      const named = options !== null && typeof options === 'object' ? (options as { action?: unknown }).action : undefined;
      const action = typeof named === 'string' ? named : undefined;
      const found = registry.find(id);
      if (found) return found.execute(action);
      if (typeof id !== 'string' || !id) throw new Error('ariadne: no widget rendered');
      const key = `${id}\n${action ?? ''}`;
      let widgetId = bySiteKey.get(key);
      if (widgetId === undefined)
        bySiteKey.set(key, (widgetId = registry.render(holder(), { sitekey: id, size: 'invisible', action: action ?? '' }).id));
      return registry.get(widgetId).execute();
    },
    ready: compat.ready,
  };
  (window as unknown as { grecaptcha: typeof grecaptcha }).grecaptcha = grecaptcha;
  return registry;
});

// /turnstile/v0/api.js: Turnstile's `window.turnstile` over Ariadne's widget. Containers are
// `.cf-turnstile` elements or render() calls; the token goes to `cf-turnstile-response` (or
// the field named by response-field-name, or none with response-field=false).
import { randomId } from '../element.js';
import { type Params, isOff } from './callBack.js';
import { CompatRegistry } from './CompatRegistry.js';
import type { Flavour } from './CompatWidget.js';
import { startCompat } from './startCompat.js';

const flavour: Flavour = {
  className: 'cf-turnstile',
  widgetId: () => `cf-chl-widget-${randomId().replace(/-/g, '').slice(0, 8)}`,
  fieldNames: (params) => {
    if (isOff(params['response-field'])) return [];
    const name = params['response-field-name'];
    return [typeof name === 'string' && name ? name : 'cf-turnstile-response'];
  },
  fieldTag: 'input',
  invisible: (params) => params.execution === 'execute',
  dismissCallback: 'error-callback',
  dismissArgs: ['challenge-closed'],
  errorArgs: (code) => [code],
};

startCompat(['/turnstile/v0/api.js'], (compat) => {
  const registry = new CompatRegistry(flavour, 'last');
  const turnstile = {
    ...registry.commonApi(),
    /** Runs the check of a widget rendered with execution 'execute' (rendering it first if needed). */
    execute(container?: unknown, params?: Params): void {
      const widget = registry.find(container) ?? registry.renderAt(container, { ...params, execution: 'execute' });
      void widget.execute();
    },
    isExpired: (id?: unknown): boolean => registry.find(id)?.isExpired() ?? false,
    ready: compat.ready,
    implicitRender: (): void => registry.renderAll(),
  };
  (window as unknown as { turnstile: typeof turnstile }).turnstile = turnstile;
  return registry;
});

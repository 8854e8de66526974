// Render parameters name their callbacks either as functions or, in data-* attributes and in
// reCAPTCHA-style parameter objects, as the names of global functions looked up when called.

export type Params = Record<string, unknown>;

/** Calls `params[name]` (a function, or a global function's name) with `args`, if it is set. */
export function callBack(params: Params, name: string, ...args: unknown[]): void {
  const value = params[name];
  const fn =
    typeof value === 'function' ? value : typeof value === 'string' ? (window as unknown as Record<string, unknown>)[value] : undefined;
  if (typeof fn !== 'function') return;
  try {
    (fn as (...a: unknown[]) => unknown)(...args);
  } catch (error) {
    // The site's callback failed: report it as the page's error without breaking the widget.
    setTimeout(() => {
      throw error;
    });
  }
}

/** The `data-*` attributes of `el` as render parameters (`data-expired-callback` -> `expired-callback`). */
export function dataParams(el: Element): Params {
  const params: Params = {};
  for (const attr of Array.from(el.attributes)) if (attr.name.startsWith('data-')) params[attr.name.slice(5)] = attr.value;
  return params;
}

/** A parameter that may be given as a boolean or as the text of a data-* attribute. */
export function isOff(value: unknown): boolean {
  return value === false || value === 'false' || value === 'off';
}

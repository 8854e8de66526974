import type { HttpResponse } from 'uWebSockets.js';

/**
 * `res[prop]` as seen through the wrapper `wrapper`: a native method runs on the real response (it
 * cannot run on a Proxy), and a call that returns the response for chaining returns the wrapper,
 * so chained calls keep going through it.
 */
export function forwardMember(res: HttpResponse, prop: string | symbol, wrapper: HttpResponse): unknown {
  const value = Reflect.get(res, prop) as unknown;
  if (typeof value !== 'function') return value;
  return (...args: unknown[]) => {
    const result = (value as (...a: unknown[]) => unknown).apply(res, args);
    return result === res ? wrapper : result;
  };
}

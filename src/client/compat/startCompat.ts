// What every compatible script does when it runs: find its own URL (the service's base and the
// query its loader built), publish the global API, and once the page is parsed render the
// implicit containers (unless render=explicit), then call the `onload` function and ready().
import { setAssetBase } from '../base.js';
import { defineElement } from '../element.js';
import type { CompatRegistry } from './CompatRegistry.js';

const servedAt = (url: URL, paths: readonly string[]): string | undefined => paths.find((p) => url.pathname.endsWith(p));

/** The URL this script was loaded from: document.currentScript, else the last script at one of `paths`. */
function ownScriptUrl(paths: readonly string[]): URL {
  let src = (document.currentScript as HTMLScriptElement | null)?.src;
  if (!src)
    src = Array.from(document.scripts)
      .filter((s) => s.src && servedAt(new URL(s.src), paths))
      .at(-1)?.src;
  return new URL(src || paths[0]!, document.baseURI);
}

export interface Compat {
  /** The script's query: onload, render, hl, recaptchacompat; anything else is ignored. */
  query: URLSearchParams;
  /** Runs `fn` once the API is ready (at once, in a later task, when it already is). */
  ready(fn: () => void): void;
}

/**
 * Starts a compatible script served at one of `paths` (e.g. /recaptcha/api.js): the widget's
 * files and the service's routes are at the folder that path hangs from. `publish` sets the globals.
 */
export function startCompat(paths: readonly string[], publish: (compat: Compat) => CompatRegistry): void {
  const url = ownScriptUrl(paths);
  const path = servedAt(url, paths);
  const base = path ? url.pathname.slice(0, url.pathname.length - path.length) : '';
  setAssetBase(new URL(`${base}/`, url).href);
  defineElement();
  let isReady = false;
  const queue: (() => void)[] = [];
  const compat: Compat = {
    query: url.searchParams,
    ready(fn) {
      if (isReady) setTimeout(fn);
      else queue.push(fn);
    },
  };
  const registry = publish(compat);
  const start = () => {
    if (compat.query.get('render') !== 'explicit') registry.renderAll();
    isReady = true;
    const onload = compat.query.get('onload');
    const fn = onload ? (window as unknown as Record<string, unknown>)[onload] : undefined;
    if (typeof fn === 'function') (fn as () => void)();
    for (const f of queue.splice(0)) f();
  };
  // Like the services' loaders, never call back synchronously from the script tag itself.
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start, { once: true });
  else setTimeout(start);
}

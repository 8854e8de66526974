import type { TemplatedApp } from 'uWebSockets.js';

/** A route as registered with uWebSockets.js. */
export interface RegisteredRoute {
  /** get, post, options, any, ... (uWS method names). */
  method: string;
  path: string;
  /** Registered by ServerOptions.mount (the widget's files, the demo), not by the API. */
  mounted: boolean;
}

const METHODS = new Set(['get', 'post', 'put', 'del', 'patch', 'head', 'options', 'connect', 'trace', 'any']);

/**
 * Every route an app registers, recorded as it is registered (uWS cannot list its router), so
 * the OpenAPI document can be compared with what is really served.
 */
export class RouteTable {
  readonly #routes: RegisteredRoute[] = [];
  #mounting = false;

  /** `app`, recording each route registered through it. */
  recording(app: TemplatedApp): TemplatedApp {
    const record = (method: string, path: string) => this.#routes.push({ method, path, mounted: this.#mounting });
    const proxy: TemplatedApp = new Proxy(app, {
      get(target, prop, receiver) {
        const value = Reflect.get(target, prop, receiver) as unknown;
        if (typeof value !== 'function') return value;
        if (typeof prop === 'string' && METHODS.has(prop)) {
          return (path: string, handler: unknown) => {
            record(prop, path);
            (value as (p: string, h: unknown) => unknown).call(target, path, handler);
            return proxy;
          };
        }
        return (value as (...a: unknown[]) => unknown).bind(target);
      },
    });
    return proxy;
  }

  /** Runs `register`, marking what it registers as mounted. */
  mounting(register: () => void): void {
    this.#mounting = true;
    try {
      register();
    } finally {
      this.#mounting = false;
    }
  }

  get all(): readonly RegisteredRoute[] {
    return this.#routes;
  }

  get mounted(): readonly RegisteredRoute[] {
    return this.#routes.filter((r) => r.mounted);
  }
}

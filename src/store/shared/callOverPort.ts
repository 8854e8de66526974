import type { MessagePort } from 'node:worker_threads';
import { StoreUnavailableError } from '../Store.js';

/** A call: [id, method, args]. An answer: [id, true, value] or [id, false, {name, message}]. */
export type PortCall = [number, string, unknown[]];
export type PortAnswer = [number, true, unknown] | [number, false, { name: string; message: string }];

/**
 * The `methods` of an object owned by another thread (answerOverPort), called as if it were
 * here: `remote.get(id)` resolves to what the owner's `get(id)` resolved to. An owner's
 * StoreUnavailableError arrives as one, so callers still fail closed with 503.
 */
export function callOverPort<T, K extends keyof T & string>(port: MessagePort, methods: readonly K[]): Pick<T, K> {
  const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
  let nextId = 0;
  port.on('message', ([id, ok, value]: PortAnswer) => {
    const p = pending.get(id);
    pending.delete(id);
    if (ok) return p?.resolve(value);
    p?.reject(value.name === 'StoreUnavailableError' ? new StoreUnavailableError(value.message) : new Error(value.message));
  });
  const call = (method: string, args: unknown[]) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      port.postMessage([id, method, args] satisfies PortCall);
    });
  return Object.fromEntries(methods.map((m) => [m, (...args: unknown[]) => call(m, args)])) as Pick<T, K>;
}

import { MessageChannel, type MessagePort } from 'node:worker_threads';
import type { PortAnswer, PortCall } from './callOverPort.js';

/**
 * Answers callOverPort's calls with `owner`'s methods, those named in `methods` only: the
 * one thread that owns a store serves the others through it.
 */
export function answerOverPort(port: MessagePort, owner: object, methods: readonly string[]): void {
  const allowed = new Set(methods);
  port.on('message', ([id, method, args]: PortCall) => {
    const answer = (a: PortAnswer) => port.postMessage(a);
    if (!allowed.has(method)) return answer([id, false, { name: 'Error', message: `no method ${method}` }]);
    const fn = (owner as Record<string, (...a: unknown[]) => Promise<unknown>>)[method]!;
    fn.apply(owner, args).then(
      (value) => answer([id, true, value]),
      (e: unknown) =>
        answer([id, false, { name: e instanceof Error ? e.name : 'Error', message: e instanceof Error ? e.message : String(e) }]),
    );
  });
}

/** A new port whose other end (post it to a thread) calls `owner`'s `methods` on this thread. */
export function servedOverPort(owner: object, methods: readonly string[]): MessagePort {
  const { port1, port2 } = new MessageChannel();
  answerOverPort(port1, owner, methods);
  port1.unref();
  return port2;
}

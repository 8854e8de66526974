import type { Worker } from 'node:worker_threads';

export interface Supervision {
  /** Whether the process is stopping: threads exiting then are expected. */
  stopping(): boolean;
  /**
   * A thread died while serving. The shared store may be torn (a thread can die holding a
   * bucket's lock), so the caller must end the process, not keep serving without it.
   */
  onCrash(message: string): void;
}

/**
 * Reports the death of `worker` once: an uncaught error it reported itself (a server thread
 * catches its own, see serverThread.ts), one that killed it, or any exit while not stopping.
 */
export function superviseThread(worker: Worker, name: string, supervision: Supervision): void {
  let reported = false;
  const report = (message: string) => {
    if (reported || supervision.stopping()) return;
    reported = true;
    supervision.onCrash(message);
  };
  worker.on('message', (m: { type?: unknown; message?: unknown }) => {
    if (m?.type === 'crashed') report(`${name} crashed: ${String(m.message)}`);
  });
  worker.on('error', (err) => report(`${name} crashed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`));
  worker.on('exit', (code) => report(`${name} exited with code ${code}`));
}

import type { Worker } from 'node:worker_threads';
import { threadOfModule } from '../../threadOfModule.js';
import type { SignatureVerifier } from './SignatureVerifier.js';

interface Pending {
  resolve(valid: boolean): void;
  reject(err: Error): void;
}

/**
 * Checks on a worker thread (signatureWorkerThread.ts): node:crypto imports a key on the calling
 * thread, so the whole check, import included, runs off the thread that serves HTTP, at about
 * 67 us more CPU per check for the round trip. One worker per serving thread, started on first
 * use; it holds the process open only while checks are pending.
 */
class SignatureWorker implements SignatureVerifier {
  #worker: Worker | undefined;
  readonly #pending = new Map<number, Pending>();
  #nextId = 0;

  check(publicKey: string, signature: string, text: string): Promise<boolean> {
    const worker = (this.#worker ??= this.#start());
    if (this.#pending.size === 0) worker.ref();
    const id = this.#nextId++;
    worker.postMessage([id, publicKey, signature, text]);
    return new Promise((resolve, reject) => this.#pending.set(id, { resolve, reject }));
  }

  #start(): Worker {
    const worker = threadOfModule(import.meta.url, 'signatureWorkerThread');
    worker.unref();
    worker.on('message', ([id, valid]: [number, boolean]) => {
      this.#pending.get(id)?.resolve(valid);
      this.#pending.delete(id);
      if (this.#pending.size === 0) worker.unref();
    });
    worker.on('error', (err) => this.#lost(worker, err));
    worker.on('exit', (code) => this.#lost(worker, new Error(`signature worker exited with code ${code}`)));
    return worker;
  }

  /** The worker died: pending checks fail (their requests answer internal_error), the next starts a new one. */
  #lost(worker: Worker, err: Error): void {
    if (this.#worker !== worker) return;
    this.#worker = undefined;
    for (const pending of this.#pending.values()) pending.reject(err);
    this.#pending.clear();
  }
}

/** This thread's signature worker. */
export const signatureWorker: SignatureVerifier = new SignatureWorker();

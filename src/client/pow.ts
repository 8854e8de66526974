// Runs the proof of work off the main thread. The worker script may live on another origin
// than the page (a site embedding the widget from the service), so it is started through a
// same-origin blob that imports it; where workers are refused (a strict CSP), the same search
// runs on the page in short slices, so input still never waits long.
import { instantiateKernel } from './kernel.js';
import { searchPow, type PowFound } from './powSearch.js';
import type { WorkerReply, WorkerRequest } from './worker.js';

export type Progress = (tried: number) => void;

function startWorker(url: string): Worker | null {
  try {
    if (new URL(url, location.href).origin === location.origin) return new Worker(url);
    const blob = new Blob([`importScripts(${JSON.stringify(url)});`], { type: 'text/javascript' });
    return new Worker(URL.createObjectURL(blob));
  } catch {
    return null;
  }
}

/** The proofs of one job still awaited, by difficulty. */
type Pending = Map<number, (proof: PowFound | null) => void>;

export class PowSolver {
  private worker: Worker | null | undefined;
  private job = 0;
  private settle: (() => void) | null = null;

  constructor(private readonly workerUrl: string) {}

  /**
   * Searches one nonce sequence for every difficulty of `difficulties` (the search goes on past
   * the lowest one, so the higher ones cost no extra wait while the person is still tracing).
   * Returns a promise per difficulty, in the same order: the first nonce meeting it, or null
   * when cancelled by a newer job or by cancel().
   */
  solve(module: WebAssembly.Module, challenge: string, difficulties: readonly number[], progress: Progress): Promise<PowFound | null>[] {
    this.settle?.();
    const id = ++this.job;
    const pending: Pending = new Map();
    const proofs = new Map<number, Promise<PowFound | null>>();
    for (const d of difficulties) {
      if (!proofs.has(d)) proofs.set(d, new Promise((resolve) => pending.set(d, resolve)));
    }
    let done = () => {};
    const found = (difficulty: number, proof: PowFound | null) => {
      pending.get(difficulty)?.(proof);
      pending.delete(difficulty);
      if (pending.size === 0) done();
    };
    // Settles this job only (a newer job has its own).
    const settle = () => {
      for (const d of [...pending.keys()]) found(d, null);
    };
    this.settle = settle;
    const release = () => {
      if (this.settle === settle) this.settle = null;
    };
    const here = () => {
      void this.solveHere(id, module, challenge, [...pending.keys()], progress, found).then(settle, settle);
    };
    if (this.worker === undefined) this.worker = startWorker(this.workerUrl);
    const worker = this.worker;
    if (!worker) {
      done = release;
      here();
    } else {
      const onMessage = (e: MessageEvent<WorkerReply>) => {
        const r = e.data;
        if (r.id !== id) return;
        if (r.type === 'progress') progress(r.tried);
        else if (r.type === 'found') found(r.difficulty, { nonce: r.nonce, hash: r.hash });
        else {
          detach();
          here();
        }
      };
      const onError = () => {
        this.worker = null;
        worker.terminate();
        detach();
        here();
      };
      const detach = () => {
        worker.removeEventListener('message', onMessage);
        worker.removeEventListener('error', onError);
      };
      done = () => {
        detach();
        release();
      };
      worker.addEventListener('message', onMessage);
      worker.addEventListener('error', onError);
      const request: WorkerRequest = { type: 'solve', id, module, challenge, difficulties: [...pending.keys()] };
      worker.postMessage(request);
    }
    return difficulties.map((d) => proofs.get(d)!);
  }

  /** Stops the current job: its proofs still awaited resolve with null. */
  cancel(): void {
    this.job++;
    this.settle?.();
    this.worker?.postMessage({ type: 'cancel' } satisfies WorkerRequest);
  }

  destroy(): void {
    this.cancel();
    this.worker?.terminate();
    this.worker = undefined;
  }

  private async solveHere(
    id: number,
    module: WebAssembly.Module,
    challenge: string,
    difficulties: number[],
    progress: Progress,
    found: (difficulty: number, proof: PowFound) => void,
  ): Promise<void> {
    const kernel = await instantiateKernel(module);
    await searchPow(kernel, challenge, difficulties, () => this.job !== id, progress, found);
  }
}
